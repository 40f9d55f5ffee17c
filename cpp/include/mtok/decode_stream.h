// Incremental decoding for generation loops (HF tokenizers' DecodeStream):
// each step returns only text that is complete, never half a character.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mtok/export.h"
#include "mtok/status.h"
#include "mtok/tokenizer.h"

namespace mtok {

class MTOK_API DecodeStream {
 public:
  // `ids` are context already seen: their text is never returned.
  explicit DecodeStream(bool skip_special_tokens, std::vector<uint32_t> ids = {})
      : skip_special_tokens_(skip_special_tokens), ids_(std::move(ids)) {}

  // Appends ids. When they complete new text, stores it in *text and sets
  // *has_text; otherwise *has_text is false.
  Status Step(const Tokenizer& tok, const uint32_t* ids, size_t n, bool* has_text,
              std::string* text);

 private:
  bool skip_special_tokens_;
  std::vector<uint32_t> ids_;  // the ids still needed to decode the prefix in context
  std::string prefix_;         // text of ids_[0, prefix_index_), already returned
  size_t prefix_index_ = 0;
};

}  // namespace mtok
