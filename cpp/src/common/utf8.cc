#include "common/utf8.h"

#include <cstdint>
#include <cstring>

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
// Long buffers (a charsmap's replacements: 200 KB of mostly CJK) go through
// AVX2 up to the block of the first error, if any; then the machine checks
// the rest from a character boundary, so offsets are exactly its own. Out
// of line: validate's short path stays a leaf, without this call's spills.
__attribute__((noinline)) bool ValidateLong(std::string_view s, size_t* bad_offset) {
  static const bool has_avx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));  // generic x86-64 build
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  const size_t done = has_avx2 ? detail::ValidPrefixAvx2(p, n) : 0;
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
