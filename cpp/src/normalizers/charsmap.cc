#include "normalizers/charsmap.h"

#include "common/utf8.h"

namespace mtok {

bool Charsmap::Parse(std::string_view blob, std::string* error) {
  uint32_t trie_bytes;
  if (blob.size() < 4) {
    *error = "charsmap is shorter than its 4-byte header";
    return false;
  }
  std::memcpy(&trie_bytes, blob.data(), 4);
  if (trie_bytes % 4 != 0 || trie_bytes > blob.size() - 4) {
    *error = "charsmap trie size " + std::to_string(trie_bytes) + " does not fit the blob";
    return false;
  }
  trie_ = blob.data() + 4;
  units_ = trie_bytes / 4;
  normalized_ = blob.substr(4 + trie_bytes);
  size_t bad;
  if (!utf8::validate(normalized_, &bad)) {
    *error = "charsmap replacements are not valid UTF-8 (byte " + std::to_string(bad) + ")";
    return false;
  }
  return true;
}

bool Charsmap::Replacement(uint32_t at, std::string_view* out) const {
  if (at > normalized_.size()) return false;
  if (at < normalized_.size() && (static_cast<uint8_t>(normalized_[at]) & 0xC0) == 0x80) return false;
  std::string_view rest = normalized_.substr(at);
  size_t nul = rest.find('\0');
  *out = nul == std::string_view::npos ? rest : rest.substr(0, nul);
  return true;
}

}  // namespace mtok
