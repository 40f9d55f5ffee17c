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
    for (size_t q = 1; q < tok.size(); ++q) {
      if (static_cast<unsigned char>(tok[q]) < kTracked) continue;
      const bool two_left = q >= 2, two_right = tok.size() - q >= 2;
      const Class c = two_left ? (two_right ? k22 : k21) : (two_right ? k12 : k11);
      const size_t from = q - (two_left ? 2 : 1);
      t.Set(c, Window(tok, from, q + (two_right ? 2 : 1) - from));
    }
  }
  return t;
}

bool TokenSpans::MaySpanTracked(std::string_view s, size_t p) const {
  if (p >= 2 && p + 2 <= s.size()) {
    // Inside the piece (most points): one load, the four windows of it.
    const uint32_t w = Load4(s.data() + p - 2);
    return Has(k22, w) || Has(k11, (w >> 8) & 0xFFFF) || Has(k12, w >> 8) || Has(k21, w & 0xFFFFFF);
  }
  return Has(k11, Window(s, p - 1, 2)) || (p + 2 <= s.size() && Has(k12, Window(s, p - 1, 3))) ||
         (p >= 2 && Has(k21, Window(s, p - 2, 3)));
}

}  // namespace mtok
