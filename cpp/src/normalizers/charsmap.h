// SentencePiece's precompiled_charsmap: a darts-clone double-array trie from
// byte strings to offsets into a block of NUL-terminated replacements. The
// blob is untrusted, so every unit index and offset is checked before use.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace mtok {

class Charsmap {
 public:
  // Parses [u32 trie bytes][trie units][replacements]. On failure returns
  // false and says why in *error.
  bool Parse(std::string_view blob, std::string* error);
  bool empty() const { return units_ == 0; }

  // Calls fn(length, replacement) for every key that is a prefix of s,
  // shortest first; fn returns false to stop. A NUL byte ends the search.
  template <typename Fn>
  void ForEachPrefix(std::string_view s, Fn fn) const {
    if (units_ == 0) return;
    uint32_t node = Offset(Unit(0));
    for (size_t i = 0; i < s.size(); ++i) {
      const uint8_t c = static_cast<uint8_t>(s[i]);
      if (c == 0) return;
      node ^= c;
      if (node >= units_) return;
      const uint32_t unit = Unit(node);
      if ((unit & ((1u << 31) | 0xFF)) != c) return;
      node ^= Offset(unit);
      if ((unit >> 8) & 1) {
        if (node >= units_) return;
        std::string_view rep;
        if (!Replacement(Unit(node) & 0x7FFFFFFF, &rep)) return;
        if (!fn(i + 1, rep)) return;
      }
    }
  }

 private:
  uint32_t Unit(uint32_t i) const {
    uint32_t u;
    std::memcpy(&u, trie_ + 4 * static_cast<size_t>(i), 4);
    return u;
  }
  static uint32_t Offset(uint32_t unit) { return (unit >> 10) << ((unit & (1u << 9)) >> 6); }
  // The replacement at `at`, up to its NUL; false when `at` is outside the
  // replacements or not at a character start (a broken blob).
  bool Replacement(uint32_t at, std::string_view* out) const;

  const char* trie_ = nullptr;
  uint32_t units_ = 0;
  std::string_view normalized_;
};

}  // namespace mtok
