// utf8::validate's AVX2 pass over long buffers (utf8.cc dispatches to it),
// after Keiser and Lemire, "Validating UTF-8 In Less Than One Instruction
// Per Byte" (2021): about 30 instructions a 32-byte block, against the
// state machine's 8 to 10 a byte on non-ASCII text.
#include "common/utf8.h"

#if MTOK_UTF8_AVX2
#include <immintrin.h>

// Compiled for AVX2 here only: the rest of the build targets generic x86-64
// and calls this after checking the CPU.
#define MTOK_AVX2 __attribute__((target("avx2")))

namespace mtok::utf8::detail {

namespace {

// What can be wrong with a byte and the one before it, a bit a class. The
// pair is bad when a bit is set in all three tables' entries: the first
// byte's high nibble's, its low nibble's and the second byte's high
// nibble's.
enum : uint8_t {
  kTooShort = 0x01,   // a lead, then no continuation
  kTooLong = 0x02,    // ASCII, then a continuation
  kOverlong3 = 0x04,  // E0 80..9F
  kTooLarge = 0x08,   // F4 90..BF, F5..FF 90..BF
  kSurrogate = 0x10,  // ED A0..BF
  kOverlong2 = 0x20,  // C0 or C1, then a continuation
  kF0F5To8F = 0x40,   // F0 80..8F (overlong), F5..FF 80..8F (too large): one bit, both F_ 8_
  kTwoConts = 0x80,   // two continuations: right only as a 3rd or 4th byte
};
constexpr uint8_t kAny = kTooShort | kTooLong | kTwoConts;  // classes no low nibble rules out
constexpr uint8_t kF5 = kAny | kTooLarge | kF0F5To8F;        // low nibble 5..F, as of F5..FF
constexpr uint8_t kCont = kTooLong | kTwoConts | kOverlong2;    // any continuation

alignas(16) constexpr uint8_t kFirstHigh[16] = {
    kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong,  // ASCII
    kTwoConts, kTwoConts, kTwoConts, kTwoConts,                                      // continuations
    kTooShort | kOverlong2, kTooShort,                                               // C_, D_
    kTooShort | kOverlong3 | kSurrogate, kTooShort | kTooLarge | kF0F5To8F};         // E_, F_
alignas(16) constexpr uint8_t kFirstLow[16] = {
    kAny | kOverlong3 | kOverlong2 | kF0F5To8F, kAny | kOverlong2, kAny, kAny,  // _0 _1 _2 _3
    kAny | kTooLarge, kF5, kF5, kF5, kF5, kF5, kF5, kF5, kF5,                    // _4 .. _C
    kF5 | kSurrogate, kF5, kF5};                                                 // _D _E _F
alignas(16) constexpr uint8_t kSecondHigh[16] = {
    kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort,
    kCont | kOverlong3 | kF0F5To8F, kCont | kOverlong3 | kTooLarge,     // 8_, 9_
    kCont | kSurrogate | kTooLarge, kCont | kSurrogate | kTooLarge,     // A_, B_
    kTooShort, kTooShort, kTooShort, kTooShort};

MTOK_AVX2 inline __m256i Table(const uint8_t (&t)[16]) {
  return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(t)));
}

// The block shifted right by N bytes, the previous block's last N first
// (alignr works within 128-bit lanes, so its low lane takes prev's high one).
template <int N>
MTOK_AVX2 inline __m256i Before(__m256i cur, __m256i prev) {
  return _mm256_alignr_epi8(cur, _mm256_permute2x128_si256(prev, cur, 0x21), 16 - N);
}

MTOK_AVX2 inline __m256i Lookup(__m256i table, __m256i nibbles) {
  return _mm256_shuffle_epi8(table, _mm256_and_si256(nibbles, _mm256_set1_epi8(0x0F)));
}

}  // namespace

MTOK_AVX2 size_t ValidPrefixAvx2(const unsigned char* p, size_t n) {
  const __m256i first_high = Table(kFirstHigh), first_low = Table(kFirstLow), second_high = Table(kSecondHigh);
  // A lead in a block's last three bytes whose sequence goes on past them.
  const __m256i max_at_end = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                              -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, '\xEF', '\xDF', '\xBF');
  __m256i prev = _mm256_setzero_si256(), prev_open = _mm256_setzero_si256();
  size_t k = 0;
  for (; n - k >= 32; k += 32) {
    const __m256i cur = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + k));
    __m256i bad;
    if (_mm256_movemask_epi8(cur) == 0) {
      bad = prev_open;  // all ASCII: wrong only after a lead left open
      prev_open = _mm256_setzero_si256();
    } else {
      const __m256i prev1 = Before<1>(cur, prev);
      const __m256i pairs = _mm256_and_si256(
          _mm256_and_si256(Lookup(first_high, _mm256_srli_epi16(prev1, 4)), Lookup(first_low, prev1)),
          Lookup(second_high, _mm256_srli_epi16(cur, 4)));
      // Two bytes after E0..FF and three after F0..FF must be continuations
      // (bit 7 of the saturated difference): exactly where kTwoConts is.
      const __m256i third = _mm256_subs_epu8(Before<2>(cur, prev), _mm256_set1_epi8(char(0xE0 - 0x80)));
      const __m256i fourth = _mm256_subs_epu8(Before<3>(cur, prev), _mm256_set1_epi8(char(0xF0 - 0x80)));
      const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(char(0x80)));
      bad = _mm256_xor_si256(pairs, must_continue);
      prev_open = _mm256_subs_epu8(cur, max_at_end);
    }
    if (!_mm256_testz_si256(bad, bad)) break;
    prev = cur;
  }
  // p[0, k) is a valid prefix: back up to the start of the character open
  // at k, if any (continuations are at most 3), for the scalar pass.
  for (size_t j = 1; j <= 3 && j <= k; ++j)
    if ((p[k - j] & 0xC0) != 0x80) return k - j;
  return k;
}

}  // namespace mtok::utf8::detail

#endif  // MTOK_UTF8_AVX2
