#include "common/utf8.h"

#include <cstdint>
#include <cstring>

// x86-64 GCC and Clang also build an AVX2 pass for long buffers, used when
// the CPU has AVX2; elsewhere validate is the scalar machine alone.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MTOK_UTF8_AVX2 1
#include <immintrin.h>
#endif

namespace mtok::utf8 {

namespace {

// Well-formed UTF-8 (Unicode Table 3-7) as a state machine over byte
// classes: one table load and one transition a byte, no decoding. (The
// decoding loop cost a vocab of short tokens about 100 instructions each.)
enum : uint8_t { kAscii, kCont8, kCont9, kContA, kBad, kLead2, kLeadE0, kLead3, kLeadED, kLeadF0, kLead4, kLeadF4 };
enum : uint8_t { kAccept, kReject, kNeed1, kNeed2, kNeed3, kAfterE0, kAfterED, kAfterF0, kAfterF4, kStates };

struct Utf8Dfa {
  uint8_t cls[256];
  uint8_t next[kStates][12];
  constexpr Utf8Dfa() : cls(), next() {
    for (int b = 0; b < 256; ++b) {
      cls[b] = b < 0x80 ? kAscii : b < 0x90 ? kCont8 : b < 0xA0 ? kCont9 : b < 0xC0 ? kContA
             : b < 0xC2 ? kBad : b < 0xE0 ? kLead2 : b == 0xE0 ? kLeadE0 : b == 0xED ? kLeadED
             : b < 0xF0 ? kLead3 : b == 0xF0 ? kLeadF0 : b < 0xF4 ? kLead4 : b == 0xF4 ? kLeadF4 : kBad;
    }
    for (int st = 0; st < kStates; ++st)
      for (int c = 0; c < 12; ++c) next[st][c] = kReject;
    next[kAccept][kAscii] = kAccept;
    next[kAccept][kLead2] = kNeed1;
    next[kAccept][kLeadE0] = kAfterE0;
    next[kAccept][kLead3] = kNeed2;
    next[kAccept][kLeadED] = kAfterED;
    next[kAccept][kLeadF0] = kAfterF0;
    next[kAccept][kLead4] = kNeed3;
    next[kAccept][kLeadF4] = kAfterF4;
    for (const uint8_t c : {kCont8, kCont9, kContA}) {
      next[kNeed1][c] = kAccept;
      next[kNeed2][c] = kNeed1;
      next[kNeed3][c] = kNeed2;
    }
    next[kAfterE0][kContA] = kNeed1;                                  // E0 A0..BF: no overlongs
    next[kAfterED][kCont8] = next[kAfterED][kCont9] = kNeed1;         // ED 80..9F: no surrogates
    next[kAfterF0][kCont9] = next[kAfterF0][kContA] = kNeed2;         // F0 90..BF: no overlongs
    next[kAfterF4][kCont8] = kNeed2;                                  // F4 80..8F: <= U+10FFFF
  }
};
constexpr Utf8Dfa kDfa;

// The offset of the first byte of the first bad or cut sequence of s.
size_t FirstBad(const unsigned char* p, size_t n) {
  size_t start = 0;
  uint8_t state = kAccept;
  for (size_t i = 0; i < n; ++i) {
    if (state == kAccept) start = i;
    state = kDfa.next[state][kDfa.cls[p[i]]];
    if (state == kReject) break;
  }
  return start;
}

// The machine over p[0, n): the verdict, and the offset on failure.
inline bool ValidateScalar(const unsigned char* p, size_t n, size_t* bad_offset) {
  size_t i = 0;
  uint8_t state = kAccept;
  while (i < n) {
    // Eight ASCII bytes at a time between sequences: most text is ASCII.
    uint64_t word;
    while (state == kAccept && n - i >= 8 && (std::memcpy(&word, p + i, 8), (word & 0x8080808080808080ull) == 0))
      i += 8;
    // Then up to 16 bytes through the machine alone (reject is absorbing).
    for (const size_t end = i + 16 < n ? i + 16 : n; i < end; ++i) state = kDfa.next[state][kDfa.cls[p[i]]];
    if (state == kReject) break;
  }
  if (state == kAccept) return true;
  *bad_offset = FirstBad(p, n);
  return false;
}

#if MTOK_UTF8_AVX2
// The AVX2 pass, after Keiser and Lemire, "Validating UTF-8 In Less Than One
// Instruction Per Byte" (2021): a 32-byte block in a few dozen
// instructions, where the machine takes several a byte of non-ASCII text.
// Only these functions are compiled for AVX2: the build targets generic x86-64.
#define MTOK_AVX2 __attribute__((target("avx2")))

namespace avx2 {

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
constexpr uint8_t kAnyCont = kTooLong | kTwoConts | kOverlong2;  // any continuation

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
    kAnyCont | kOverlong3 | kF0F5To8F, kAnyCont | kOverlong3 | kTooLarge,     // 8_, 9_
    kAnyCont | kSurrogate | kTooLarge, kAnyCont | kSurrogate | kTooLarge,     // A_, B_
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

MTOK_AVX2 size_t ValidPrefix(const unsigned char* p, size_t n) {
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
      bad = prev_open;  // all ASCII: wrong only after a lead left open (and leaves none open)
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

}  // namespace avx2

// Long buffers (a charsmap's replacement strings, a file's vocab) go through
// AVX2 up to the block of the first error, if any; then the machine checks
// the rest from a character boundary, so offsets are exactly its own. Out
// of line: validate's short path stays a leaf, without this call's spills.
__attribute__((noinline)) bool ValidateLong(std::string_view s, size_t* bad_offset) {
  static const bool has_avx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));  // generic x86-64 build
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  const size_t done = has_avx2 ? avx2::ValidPrefix(p, n) : 0;
  if (ValidateScalar(p + done, n - done, bad_offset)) return true;
  *bad_offset += done;
  return false;
}
#endif

}  // namespace

bool validate(std::string_view s, size_t* bad_offset) {
#if MTOK_UTF8_AVX2
  // Short strings (tokens) would not pay for the vector setup.
  if (s.size() >= 64) return ValidateLong(s, bad_offset);
#endif
  return ValidateScalar(reinterpret_cast<const unsigned char*>(s.data()), s.size(), bad_offset);
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
