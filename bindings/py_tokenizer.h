// What the binding files share: the Python handle of a tokenizer, the
// per-object encode settings, and zero-copy views of Python text.
#pragma once
#include <nanobind/nanobind.h>

#include <memory>
#include <string_view>
#include <vector>

#include "id_objects.h"
#include "mtok/encoding.h"
#include "mtok/tokenizer.h"

namespace mtok_py {

struct PyTokenizer {
  explicit PyTokenizer(std::unique_ptr<mtok::Tokenizer> t)
      : tok(std::move(t)), id_objects(std::make_unique<IdObjects>(tok->IdLimit())) {}
  std::unique_ptr<mtok::Tokenizer> tok;
  std::unique_ptr<IdObjects> id_objects;
};

// Truncation and padding of one Python Tokenizer object. Never changed once
// built (Python swaps in a new one), so encodes on any thread can share it.
struct EncodeConfig {
  mtok::TruncationParams truncation;
  mtok::PaddingParams padding;
  // HF's encode_special_tokens: only these added tokens (the non-special
  // ones) are matched in the text; special ones are encoded as text.
  bool split_special = false;
  std::vector<uint32_t> allowed_ids;
};

// UTF-8 views of a sequence of str / bytes, valid while `keep` lives.
// A str with lone surrogates raises UnicodeEncodeError (Python cleans and
// retries); bytes that are not UTF-8 raise EncodeError.
struct TextViews {
  std::vector<std::string_view> views;
  std::vector<nanobind::object> keep;
};
TextViews ViewTexts(nanobind::handle seq);
std::string_view ViewText(nanobind::handle text);

// The options of one call.
mtok::EncodeOptions MakeOptions(bool add_special, const EncodeConfig* config, bool details);

}  // namespace mtok_py
