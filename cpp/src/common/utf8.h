// UTF-8 helpers. Text reaching the core is valid UTF-8 (the bindings check
// bytes input), so the decoder here is fast and only guards bounds.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "mtok/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mtok::utf8 {

// Length of the sequence starting with lead byte b (1 for invalid leads, so
// a scan always makes progress).
inline int seq_len(unsigned char b) {
  if (b < 0x80) return 1;
  if ((b >> 5) == 0x6) return 2;
  if ((b >> 4) == 0xE) return 3;
  if ((b >> 3) == 0x1E) return 4;
  return 1;
}

// Decodes one code point at s[i] (i < s.size()), stores its byte length in
// *len. Truncated or invalid sequences decode as U+FFFD of length 1.
inline char32_t decode(std::string_view s, size_t i, int* len) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  size_t left = s.size() - i;
  unsigned char b = p[0];
  if (b < 0x80) { *len = 1; return b; }
  // Two- and three-byte sequences (every script but a few) without the
  // general loop: scanners decode every character of non-Latin text.
  if ((b >> 4) == 0xE) {
    if (left >= 3 && (p[1] & 0xC0) == 0x80 && (p[2] & 0xC0) == 0x80) {
      *len = 3;
      return (char32_t(b & 0x0F) << 12) | (char32_t(p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    }
    *len = 1;
    return 0xFFFD;
  }
  if ((b >> 5) == 0x6) {
    if (left >= 2 && (p[1] & 0xC0) == 0x80) {
      *len = 2;
      return (char32_t(b & 0x1F) << 6) | (p[1] & 0x3F);
    }
    *len = 1;
    return 0xFFFD;
  }
  int n = seq_len(b);
  if (n == 1 || static_cast<size_t>(n) > left) { *len = 1; return 0xFFFD; }
  char32_t cp = b & (0x7F >> n);
  for (int k = 1; k < n; ++k) {
    if ((p[k] & 0xC0) != 0x80) { *len = 1; return 0xFFFD; }
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  *len = n;
  return cp;
}

inline void append(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// validate(s, &bad_offset): in the public mtok/utf8.h.

// Converts bytes to valid UTF-8, replacing each maximal invalid subpart with
// U+FFFD (Rust's String::from_utf8_lossy, which HF decoders use).
std::string DecodeLossy(std::string_view bytes);

// Length of the longest prefix of s[i..] that is a valid, complete
// sequence (0 when the sequence at i is invalid or truncated).
int valid_seq_len(std::string_view s, size_t i);

// Length in code points.
size_t count_chars(std::string_view s);

// The end of the run of ASCII bytes from `from` (from itself when s[from]
// is not ASCII, s.size() when the rest is ASCII); 16 bytes at a time.
// Inline: the NFC scan calls it at every ASCII run of mixed text.
inline size_t ascii_end(std::string_view s, size_t from) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = from;
#if defined(__SSE2__)
  for (; n - i >= 16; i += 16) {
    const int high = _mm_movemask_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
    if (high != 0) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(high)));
  }
#endif
  while (i < n && p[i] < 0x80) ++i;
  return i;
}

}  // namespace mtok::utf8
