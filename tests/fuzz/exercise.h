// Shared by the libFuzzer targets: runs every public Tokenizer method on a
// loaded tokenizer and aborts when an output breaks a promise the bindings
// rely on (decode and token strings must be valid UTF-8, or Python's str
// conversion fails).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/utf8.h"
#include "mtok/tokenizer.h"
#include "processors/template.h"

namespace mtok_fuzz {

inline void RequireUtf8(const std::string& s, const char* what) {
  size_t bad;
  if (!mtok::utf8::validate(s, &bad)) {
    std::fprintf(stderr, "%s is not valid UTF-8 (byte %zu of %zu)\n", what, bad, s.size());
    std::abort();
  }
}

// Decodes ids both ways and checks what comes back.
inline void Decode(const mtok::Tokenizer& tok, const std::vector<uint32_t>& ids) {
  RequireUtf8(tok.Decode(ids.data(), ids.size(), false), "Decode");
  RequireUtf8(tok.Decode(ids.data(), ids.size(), true), "Decode(skip_special)");
}

// Encodes `text` (valid UTF-8) with options picked by `mode`, then decodes.
inline void EncodeDecode(const mtok::Tokenizer& tok, std::string_view text, uint8_t mode) {
  mtok::EncodeOptions opt;
  opt.add_special_tokens = mode & 1;
  opt.added = static_cast<mtok::EncodeOptions::Added>((mode >> 1) % 3);
  const mtok::TokenizerInfo& info = tok.info();
  if (!info.special_ids.empty()) opt.allowed_ids.push_back(info.special_ids[mode % info.special_ids.size()]);
  std::vector<uint32_t> ids;
  mtok::Status st = tok.EncodeIds(text, opt, &ids);
  if (!st.ok()) return;  // an EncodeError is a valid answer
  mtok::Encoding enc;
  st = tok.Encode(text, opt, &enc);
  if (!st.ok() || enc.ids != ids) {
    std::fprintf(stderr, "Encode and EncodeIds disagree\n");
    std::abort();
  }
  Decode(tok, ids);
}

// Ids taken from raw bytes, folded into (a little beyond) the id range.
inline std::vector<uint32_t> IdsFrom(const mtok::Tokenizer& tok, const uint8_t* data, size_t size) {
  uint32_t limit = tok.VocabSize(true) + 8;
  std::vector<uint32_t> ids;
  for (size_t i = 0; i + 3 < size; i += 3) {
    uint32_t v = data[i] | uint32_t(data[i + 1]) << 8 | uint32_t(data[i + 2]) << 16;
    ids.push_back(data[i + 3] == 0xFF ? 0xFFFFFFFFu - v : v % limit);
  }
  return ids;
}

inline void TokenStrings(const mtok::Tokenizer& tok, const std::vector<uint32_t>& ids) {
  std::string t;
  for (uint32_t id : ids) {
    if (tok.IdToToken(id, &t)) {
      RequireUtf8(t, "IdToToken");
      uint32_t back;
      tok.TokenToId(t, &back);
    }
    tok.IsSpecial(id);
  }
}

}  // namespace mtok_fuzz
