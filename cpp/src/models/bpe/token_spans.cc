#include "models/bpe/token_spans.h"

#include <cstring>

namespace mtok {

namespace {

// Bytes [at, at + n) of s as a little-endian word (n <= 4).
uint32_t Window(std::string_view s, size_t at, size_t n) {
  uint32_t w = 0;
  for (size_t k = 0; k < n; ++k) w |= uint32_t{static_cast<unsigned char>(s[at + k])} << (8 * k);
  return w;
}

uint32_t Load4(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap32(w);
#endif
  return w;
}

}  // namespace

TokenSpans TokenSpans::Build(const RawTables& raw) {
  TokenSpans t;
  t.bits_.assign((size_t{1} << kBits) / 64, 0);
  for (uint32_t id = 0; id < raw.count; ++id) {
    const std::string_view tok = raw.Token(id);
    const size_t n = tok.size();
    if (n == 2) t.Set(k11, Window(tok, 0, 2));
    if (n < 3) continue;
    t.Set(k12, Window(tok, 0, 3));      // point 1: one byte on the left
    t.Set(k21, Window(tok, n - 3, 3));  // point n - 1: one byte on the right
    // Points 2..n - 2: a window rolled a byte at a time.
    for (uint32_t low = Window(tok, 0, 3), q = 2; q + 2 <= n; ++q) {
      const uint32_t w = low | uint32_t{static_cast<unsigned char>(tok[q + 1])} << 24;
      t.Set(k22, w);
      low = w >> 8;
    }
  }
  return t;
}

bool TokenSpans::MaySpan(std::string_view s, size_t p) const {
  if (p >= 2 && p + 2 <= s.size()) {
    // Inside the piece (most points): one load, the four windows of it.
    const uint32_t w = Load4(s.data() + p - 2);
    return Has(k22, w) || Has(k11, (w >> 8) & 0xFFFF) || Has(k12, w >> 8) || Has(k21, w & 0xFFFFFF);
  }
  return Has(k11, Window(s, p - 1, 2)) || (p + 2 <= s.size() && Has(k12, Window(s, p - 1, 3))) ||
         (p >= 2 && Has(k21, Window(s, p - 2, 3)));
}

}  // namespace mtok
