#include "common/utf8.h"

#include <cstring>

namespace mtok::utf8 {

bool validate(std::string_view s, size_t* bad_offset) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n) {
    // Eight ASCII bytes at a time: most tokens and text are ASCII.
    uint64_t word;
    if (n - i >= 8 && (std::memcpy(&word, p + i, 8), (word & 0x8080808080808080ull) == 0)) {
      i += 8;
      continue;
    }
    unsigned char b = p[i];
    if (b < 0x80) { ++i; continue; }
    int len = seq_len(b);
    char32_t min;
    if (len == 2) min = 0x80;
    else if (len == 3) min = 0x800;
    else if (len == 4) min = 0x10000;
    else { *bad_offset = i; return false; }
    if (i + len > n) { *bad_offset = i; return false; }
    char32_t cp = b & (0x7F >> len);
    for (int k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) { *bad_offset = i; return false; }
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) { *bad_offset = i; return false; }
    i += len;
  }
  return true;
}

namespace {

// Bounds of the second byte for lead byte b (Unicode Table 3-7).
void SecondByteRange(unsigned char b, unsigned char* lo, unsigned char* hi) {
  *lo = 0x80;
  *hi = 0xBF;
  if (b == 0xE0) *lo = 0xA0;
  else if (b == 0xED) *hi = 0x9F;
  else if (b == 0xF0) *lo = 0x90;
  else if (b == 0xF4) *hi = 0x8F;
}

int ExpectedLen(unsigned char b) {
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xF0 && b <= 0xF4) return 4;
  return 0;
}

// Number of bytes at s[i..] forming a valid prefix of a sequence (the
// "maximal subpart"), and whether the sequence is complete.
int ValidPrefix(std::string_view s, size_t i, bool* complete) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  unsigned char b = p[i];
  *complete = false;
  if (b < 0x80) { *complete = true; return 1; }
  int need = ExpectedLen(b);
  if (need == 0) return 1;
  int got = 1;
  for (int k = 1; k < need; ++k) {
    if (i + k >= s.size()) return got;
    unsigned char c = p[i + k];
    unsigned char lo = 0x80, hi = 0xBF;
    if (k == 1) SecondByteRange(b, &lo, &hi);
    if (c < lo || c > hi) return got;
    ++got;
  }
  *complete = true;
  return got;
}

}  // namespace

int valid_seq_len(std::string_view s, size_t i) {
  bool complete;
  int n = ValidPrefix(s, i, &complete);
  return complete ? n : 0;
}

std::string DecodeLossy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    bool complete;
    int n = ValidPrefix(bytes, i, &complete);
    if (complete) out.append(bytes.data() + i, n);
    else out.append("\xEF\xBF\xBD");
    i += n;
  }
  return out;
}

size_t count_chars(std::string_view s) {
  size_t c = 0;
  for (unsigned char b : s) c += (b & 0xC0) != 0x80;
  return c;
}

}  // namespace mtok::utf8
