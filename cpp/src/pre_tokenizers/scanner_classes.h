// The character classes of the Scanner's split patterns, for one code
// point at a time: a bit mask per character, from a table.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/utf8.h"

namespace mtok::scan {

// Character classes the patterns use (bit k of a mask).
enum Class : uint8_t {
  kLetter,        // \p{L}
  kNumber,        // \p{N}
  kSpace,         // \s (White_Space)
  kNotNlLN,       // [^\r\n\p{L}\p{N}]
  kOther,         // [^\s\p{L}\p{N}]
  kUpperish,      // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
  kLowerish,      // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
  kNewline,       // [\r\n]
  kNewlineSlash,  // [\r\n/]
  kLiteralSpace,  // ' '
};

// Every class of a character as one bit mask. ASCII comes from a table
// filled when the library loads; other BMP characters are filled on first
// sight (the category lookups behind a class are binary searches), with
// relaxed atomics: any thread may fill an entry, all compute the same.
struct MaskTables {
  MaskTables();
  uint16_t ascii[128];
  std::atomic<uint16_t>* bmp;  // 0x10000 entries, 0 until filled
};
extern const MaskTables kMasks;

// The mask of a character outside ASCII whose BMP entry is not filled yet.
uint16_t MaskSlow(char32_t c);

inline uint16_t Mask(char32_t c) {
  if (c < 128) return kMasks.ascii[c];
  if (c < 0x10000) {
    const uint16_t m = kMasks.bmp[c].load(std::memory_order_relaxed);
    if (m != 0) return m;
  }
  return MaskSlow(c);
}

inline bool Has(uint16_t mask, Class k) { return (mask >> k) & 1; }
inline bool In(Class k, char32_t c) { return Has(Mask(c), k); }

// The code point at s[i] (i < size) and its length.
inline char32_t At(std::string_view s, size_t i, int* len) {
  unsigned char b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) {
    *len = 1;
    return b;
  }
  return utf8::decode(s, i, len);
}

// The mask of a character of the BMP outside ASCII (c < 0x10000).
inline uint16_t MaskBmp(char32_t c) {
  const uint16_t m = kMasks.bmp[c].load(std::memory_order_relaxed);
  return m != 0 ? m : MaskSlow(c);
}

// A code point with its length and class mask.
struct Cp {
  char32_t c;
  int len;
  uint16_t mask;
};
// Two- and three-byte sequences (every script but a few) are decoded here,
// their continuation bytes tested together and the mask read without
// decode's and Mask's range tests; the rest by utf8::decode, whose results
// these are.
inline Cp CpAt(std::string_view s, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  const size_t left = s.size() - i;
  const unsigned b = p[0];
  if (b < 0x80) return {static_cast<char32_t>(b), 1, kMasks.ascii[b]};
  if ((b & 0xF0) == 0xE0) {
    const unsigned t = left >= 3 ? p[1] | unsigned{p[2]} << 8 : 0;
    if ((t & 0xC0C0) == 0x8080) {
      const char32_t c = (b & 0x0Fu) << 12 | (t & 0x3Fu) << 6 | (t >> 8 & 0x3Fu);
      return {c, 3, MaskBmp(c)};
    }
  } else if ((b & 0xE0) == 0xC0 && left >= 2 && (p[1] & 0xC0) == 0x80) {
    const char32_t c = (b & 0x1Fu) << 6 | (p[1] & 0x3Fu);
    return {c, 2, MaskBmp(c)};
  }
  Cp r;
  r.c = utf8::decode(s, i, &r.len);
  r.mask = Mask(r.c);
  return r;
}

// End of the run of class k from i (i itself when s[i] is not in k).
inline size_t RunOf(std::string_view s, size_t i, Class k) {
  const auto bit = static_cast<uint16_t>(1u << k);
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (!(kMasks.ascii[b] & bit)) break;
      ++i;
      continue;
    }
    const Cp c = CpAt(s, i);
    if (!(c.mask & bit)) break;
    i += static_cast<size_t>(c.len);
  }
  return i;
}

// 's 't 're 've 'm 'll 'd at i (optionally case-insensitive, with Unicode
// simple folding); its end, or i. The apostrophe is tested inline: most
// words (every o200k word asks) have none.
size_t ApostropheContraction(std::string_view s, size_t i, bool fold);  // s[i] is the apostrophe
inline size_t Contraction(std::string_view s, size_t i, bool fold) {
  return i < s.size() && s[i] == '\'' ? ApostropheContraction(s, i, fold) : i;
}

}  // namespace mtok::scan
