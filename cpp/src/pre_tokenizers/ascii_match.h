// ASCII shortcuts for the Scanner's pattern families. Most pre-tokens of
// English text and code (a word, number or punctuation run, with its
// leading space or prefix character, or a whitespace run) are decided from
// a byte table here; whatever needs a non-ASCII byte or an apostrophe to be
// decided is left to the full scanner, so the matches stay exact.
// Inline, per family: the scanner's loop is compiled once for each.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/unicode.h"

namespace mtok {

enum class AsciiFamily : uint8_t {
  kNone,
  kGpt2,    // 's...| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|... (GPT-2, r50k, p50k)
  kLlama3,  // [^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,k}| ?[^\s\p{L}\p{N}]+[\r\n]*|... (Llama-3, Qwen)
  kCl100k,  // the same words; whitespace starts with \s++$
  kO200k,   // cased words with a contraction suffix, \p{N}{1,3}, ...[\r\n/]*
};

namespace ascii_match {

enum : uint16_t {
  kUpper = 1, kLower = 2, kDigit = 4, kSpace = 8, kOther = 16, kNewline = 32, kHigh = 64, kSlash = 128,
  kPrefix = 256,  // [^\r\n\p{L}\p{N}]: may prefix a word
  kLetter = kUpper | kLower,
};

// Classes of each byte: \s is White_Space, "other" is [^\s\p{L}\p{N}].
struct ByteClasses {
  uint16_t of[256];
  ByteClasses() {
    for (int b = 0; b < 256; ++b) {
      const char32_t c = static_cast<char32_t>(b);
      if (b >= 0x80) of[b] = kHigh;
      else if (c >= 'A' && c <= 'Z') of[b] = kUpper;
      else if (c >= 'a' && c <= 'z') of[b] = kLower;
      else if (c >= '0' && c <= '9') of[b] = kDigit;
      else if (c == '\r' || c == '\n') of[b] = kSpace | kNewline;
      else if (unicode::is_white_space(c)) of[b] = kSpace | kPrefix;
      else of[b] = kOther | kPrefix | (c == '/' ? kSlash : 0);
    }
  }
};
inline const ByteClasses kBytes;

constexpr size_t kUndecided = 0;

inline uint16_t ClassOf(char c) { return kBytes.of[static_cast<uint8_t>(c)]; }
inline uint16_t ClassAt(std::string_view s, size_t i) { return i < s.size() ? ClassOf(s[i]) : 0; }

// Where a run stopped at i: kUndecided when on a non-ASCII byte that might
// continue it.
inline size_t Stop(std::string_view s, size_t i) {
  return i < s.size() && (ClassOf(s[i]) & kHigh) ? kUndecided : i;
}

#if defined(__SSE2__)
// 0xFF in each byte of v from lo to lo + width (unsigned), else 0.
inline __m128i InRange(__m128i v, char lo, char width) {
  const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
  return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(width)), d);
}

// Bit k set when byte k of the 16 at p is in class kMask (one of kUpper,
// kLower, kLetter, kDigit): an unsigned range test per byte.
template <uint16_t kMask>
inline uint32_t Members16(const char* p) {
  constexpr char lo = kMask == kUpper ? 'A' : kMask == kDigit ? '0' : 'a';
  constexpr char width = kMask == kDigit ? 9 : 25;
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  if (kMask == kLetter) v = _mm_or_si128(v, _mm_set1_epi8(0x20));  // folds only letters into a..z
  return static_cast<uint32_t>(_mm_movemask_epi8(InRange(v, lo, width)));
}
constexpr bool kHasMembers16 = true;
#else
template <uint16_t kMask>
inline uint32_t Members16(const char*) { return 0; }
constexpr bool kHasMembers16 = false;
#endif

// End of the run of `kMask` bytes from i (at most `max`, 0 = no limit), or
// kUndecided when it stops at a non-ASCII byte that might continue it.
template <uint16_t kMask>
inline size_t Run(std::string_view s, size_t i, size_t max = 0) {
  constexpr bool simd = kHasMembers16 && (kMask == kUpper || kMask == kLower || kMask == kLetter || kMask == kDigit);
  if (simd && max == 0) {
    while (s.size() - i >= 16) {
      const uint32_t in = Members16<kMask>(s.data() + i);
      if (in != 0xFFFF) return Stop(s, i + __builtin_ctz(~in));
      i += 16;
    }
  }
  const size_t limit = max && s.size() - i > max ? i + max : s.size();
  while (i < limit) {
    const uint16_t k = ClassOf(s[i]);
    if (!(k & kMask)) return (k & kHigh) ? kUndecided : i;
    ++i;
  }
  return i;
}

// End of the run of `mask` bytes from i, for an ASCII-only class (a
// non-ASCII byte ends it).
inline size_t AsciiRun(std::string_view s, size_t i, uint16_t mask) {
  while (i < s.size() && (ClassOf(s[i]) & mask)) ++i;
  return i;
}

// o200k's optional (?i:'s|'t|'re|'ve|'m|'ll|'d) at i (an apostrophe).
[[gnu::noinline]] inline size_t ContractionAt(std::string_view s, size_t i) {
  auto lower = [&](size_t at) -> int {
    const uint16_t k = ClassAt(s, at);
    if (k & kHigh) return -1;  // might fold to an ASCII letter (ſ)
    return (k & kLetter) ? (s[at] | 0x20) : 0;
  };
  const int a = lower(i + 1);
  if (a < 0) return kUndecided;
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return i + 2;
  if (a == 'r' || a == 'v' || a == 'l') {
    const int b = lower(i + 2);
    if (b < 0) return kUndecided;
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return i + 3;
  }
  return i;
}
inline size_t Contraction(std::string_view s, size_t i) {
  return i < s.size() && s[i] == '\'' ? ContractionAt(s, i) : i;
}

// o200k's [\p{Lu}...]*[\p{Ll}...]+ or [\p{Lu}...]+[\p{Ll}...]* from i (a
// letter), then the contraction: on ASCII letters both give the upper
// run followed by the lower run.
[[gnu::noinline]] inline size_t CasedWordRuns(std::string_view s, size_t i) {
  size_t e = Run<kUpper>(s, i);
  if (e == kUndecided) return kUndecided;
  e = Run<kLower>(s, e);
  if (e == kUndecided) return kUndecided;
  return Contraction(s, e);
}
[[gnu::always_inline]] inline size_t CasedWord(std::string_view s, size_t i) {
  if (kHasMembers16 && s.size() - i >= 16) {
    // Both runs from one load when the word ends within 16 bytes.
    const uint32_t upper = Members16<kUpper>(s.data() + i), lower = Members16<kLower>(s.data() + i);
    const unsigned u = __builtin_ctz(~upper);
    const unsigned e = u + __builtin_ctz(~(lower >> u));
    if (e < 16) {
      if (ClassOf(s[i + e]) & kHigh) return kUndecided;
      return Contraction(s, i + e);
    }
  }
  return CasedWordRuns(s, i);
}

[[gnu::always_inline]] inline size_t LetterRun(std::string_view s, size_t i) { return Run<kLetter>(s, i); }

// The whitespace alternatives at i (a whitespace byte): GPT-2 and r50k
// \s+(?!\S)|\s+ (r50k's \s++$ and \s agree); Llama-3 and o200k put
// \s*[\r\n]+ first; cl100k puts \s++$ before \s*[\r\n].
template <AsciiFamily F>
inline size_t Spaces(std::string_view s, size_t i) {
  size_t e = i, last_newline = std::string_view::npos;
  for (; e < s.size(); ++e) {
    const uint16_t k = ClassOf(s[e]);
    if (!(k & kSpace)) {
      if (k & kHigh) return kUndecided;  // U+00A0 and others are \s too
      break;
    }
    if (k & kNewline) last_newline = e;
  }
  const bool at_end = e == s.size();
  if (F == AsciiFamily::kCl100k && at_end) return e;
  if (F != AsciiFamily::kGpt2 && last_newline != std::string_view::npos) return last_newline + 1;
  if (at_end) return e;
  return e - i >= 2 ? e - 1 : e;  // the last space goes with what follows
}

inline size_t Gpt2(std::string_view s, size_t i) {
  const uint16_t c = ClassOf(s[i]);
  if (s[i] == '\'') return kUndecided;  // contractions come first
  if (c & kLetter) return Run<kLetter>(s, i);
  if (c & kDigit) return Run<kDigit>(s, i);
  if (c & kOther) return Run<kOther>(s, i);
  if (s[i] == ' ') {
    const uint16_t next = ClassAt(s, i + 1);
    if (next & kLetter) return Run<kLetter>(s, i + 1);
    if (next & kDigit) return Run<kDigit>(s, i + 1);
    if (next & kOther) return Run<kOther>(s, i + 1);
    if (next & kHigh) return kUndecided;
  }
  return (c & kSpace) ? Spaces<AsciiFamily::kGpt2>(s, i) : kUndecided;
}

// Llama-3/Qwen/cl100k and o200k share their shape: an optional prefix
// character before a word ([^\r\n\p{L}\p{N}]?), \p{N}{1,k}, then
// ` ?[^\s\p{L}\p{N}]+` with trailing `trailing` bytes, then whitespace.
// They differ in the word (`word(s, at)`, from a letter) and contractions.
template <AsciiFamily F, typename Word>
[[gnu::always_inline]] inline size_t PrefixedWords(std::string_view s, size_t i, size_t max_digits, uint16_t trailing, Word word) {
  const uint16_t c = ClassOf(s[i]);
  if (c & kLetter) return word(s, i);
  if (c & kDigit) return Run<kDigit>(s, i, max_digits);
  const uint16_t next = ClassAt(s, i + 1);
  if ((c & kPrefix) && (next & kLetter)) return word(s, i + 1);
  if (next & kHigh) return kUndecided;
  size_t from;
  if (c & kOther) from = i;
  else if (s[i] == ' ' && (next & kOther)) from = i + 1;
  else return Spaces<F>(s, i);
  const size_t e = Run<kOther>(s, from);
  return e == kUndecided ? kUndecided : AsciiRun(s, e, trailing);
}

}  // namespace ascii_match

// End of the match that starts at i (< s.size()), or 0 when ASCII alone
// cannot decide it. `max_digits` bounds \p{N} runs (0: unbounded).
template <AsciiFamily F>
[[gnu::always_inline]] inline size_t AsciiMatch(size_t max_digits, std::string_view s, size_t i) {
  using namespace ascii_match;
  if (ClassOf(s[i]) & kHigh) return kUndecided;
  if constexpr (F == AsciiFamily::kGpt2) {
    return Gpt2(s, i);
  } else if constexpr (F == AsciiFamily::kLlama3 || F == AsciiFamily::kCl100k) {
    if (s[i] == '\'') {  // (?i:'s|'t|...) comes first; without one, ' prefixes a word
      const size_t e = ContractionAt(s, i);
      if (e == kUndecided || e != i) return e;
    }
    return PrefixedWords<F>(s, i, max_digits, kNewline,
                            [](std::string_view t, size_t at) { return LetterRun(t, at); });
  } else if constexpr (F == AsciiFamily::kO200k) {  // '/' is already in the punctuation run
    return PrefixedWords<F>(s, i, max_digits, kNewline | kSlash,
                           [](std::string_view t, size_t at) { return CasedWord(t, at); });
  } else {
    return kUndecided;
  }
}

}  // namespace mtok
