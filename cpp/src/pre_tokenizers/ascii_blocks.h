// Pre-token starts of 64 bytes of ASCII text at once, for three pattern
// families: Llama-3's and Qwen's
//   (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,k}
//   | ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
// cl100k's (tiktoken), whose pre-tokens differ from those only in \s at
// the end of the text, which a block never reaches; and o200k's, whose
// words split before an upper-case letter that follows a lower-case one
// and take a contraction after them, and whose punctuation runs take
// [\r\n/]*. The bytes are classified into bit masks, and where each
// pre-token starts follows from a byte's class and its neighbours' (the
// rules are at Starts). A pre-token starts at the block's first byte, so
// nothing before it matters: the patterns look only ahead. What the
// block's bytes cannot decide (a run that reaches a non-ASCII byte or the
// block's end, a contraction's letters) is left to the scanner's other
// paths. The blocks also take the two-byte letters of Latin and Cyrillic
// text (see TwoByteLeads), which are letters like any other.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pre_tokenizers/ascii_match.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mtok::ascii_blocks {

constexpr size_t kBytes = 64;

// The families whose rules Starts knows.
template <AsciiFamily F>
constexpr bool kCovers = F == AsciiFamily::kLlama3 || F == AsciiFamily::kCl100k || F == AsciiFamily::kO200k;
// The blocks also take two-byte letters. Llama-3's and cl100k's:
// U+00C0-U+027F (Latin-1's letters, Latin Extended-A and -B, IPA; lead
// bytes C3-C9) but U+00D7 and U+00F7 (× and ÷, C3 97 and C3 B7), and
// Cyrillic's U+0400-U+047F (D0, D1); every other code point of those is
// \p{L}. o200k's words also split where an upper-case letter follows a
// lower-case one (kCased): its blocks take only letters whose case the
// bytes tell simply, U+00C0-U+00FF (upper-case to U+00DE) and
// U+0400-U+045F (upper-case to U+042F), all \p{Lu} or \p{Ll}.
template <AsciiFamily F>
constexpr bool kCased = F == AsciiFamily::kO200k;

#if defined(__SSE2__)

// Bit k of each mask: the class of byte k.
struct Masks {
  uint64_t letter, upper, digit, space, blank, newline, high, nonascii, apostrophe, slash;
};

// The bytes of v that may start a two-byte letter (C3, with C4-C9 unless
// kCased<F>; D0, D1), and the continuation bytes.
template <AsciiFamily F>
inline __m128i TwoByteLeads(__m128i v) {
  const auto c = static_cast<char>(0xC3);
  return _mm_or_si128(kCased<F> ? _mm_cmpeq_epi8(v, _mm_set1_epi8(c)) : ascii_match::InRange(v, c, 6),
                      ascii_match::InRange(v, static_cast<char>(0xD0), 1));
}
inline __m128i Continuations(__m128i v) { return ascii_match::InRange(v, static_cast<char>(0x80), 0x3F); }
template <AsciiFamily F>
inline bool IsTwoByteLead(unsigned char b) {
  return (b >= 0xC3 && b <= (kCased<F> ? 0xC3 : 0xC9)) || (b & 0xFE) == 0xD0;
}

// Whether the block at p is worth classifying: its first 16 bytes are
// ASCII and two-byte letters' bytes (in other scripts the code-point
// paths decide most pre-tokens).
template <AsciiFamily F>
inline bool Worth(const char* p) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  if (_mm_movemask_epi8(v) == 0) return true;
  // Every pre-token of other scripts asks: most start with a byte that
  // turns them away.
  const auto b = static_cast<unsigned char>(p[0]);
  if (b >= 0x80 && !IsTwoByteLead<F>(b)) return false;
  return _mm_movemask_epi8(_mm_andnot_si128(_mm_or_si128(TwoByteLeads<F>(v), Continuations(v)), v)) == 0;
}

// The classes of the bytes up to the first 16 that hold a non-ASCII byte
// that is no two-byte letter's (`high` has its bit; the classes of the
// bytes after it are 0). A two-byte letter's bytes are letters (and for
// kCased<F> both bytes of an upper-case one `upper`); a non-ASCII byte of
// no such pair is `high`.
// `nonascii`: every byte of 0x80 and above, letters or not.
template <AsciiFamily F>
inline Masks Classify(const char* p) {
  Masks m{};
  // Two-byte letters: lead bytes, continuation bytes, C3 and the
  // continuations of × and ÷ after it; other non-ASCII bytes (stop).
  // kCased<F>: D0, D1, and the continuations that give U+0400-U+045F
  // after D1 (80-9F), upper case after C3 (80-9E) and after D0 (80-AF).
  uint64_t lead = 0, cont = 0, c3 = 0, not_letter = 0, stop = 0;
  uint64_t d0 = 0, d1 = 0, cont_d1 = 0, upper_c3 = 0, upper_d0 = 0;
  for (unsigned k = 0; k < kBytes / 16 && stop == 0; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const auto in = ascii_match::InRange;
    auto is = [&v](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
    auto bits = [k](__m128i x) { return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(x))) << (16 * k); };
    const __m128i newline = _mm_or_si128(is('\n'), is('\r'));
    m.letter |= bits(in(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 25));  // | 0x20 folds only letters into a..z
    m.upper |= bits(in(v, 'A', 25));
    m.digit |= bits(in(v, '0', 9));
    m.space |= bits(is(' '));
    m.blank |= bits(_mm_or_si128(_mm_andnot_si128(newline, in(v, '\t', 4)), is(' ')));  // \s but \r \n
    m.newline |= bits(newline);
    m.high |= bits(v);
    m.apostrophe |= bits(is('\''));
    m.slash |= bits(is('/'));
    lead |= bits(TwoByteLeads<F>(v));
    cont |= bits(Continuations(v));
    c3 |= bits(is(static_cast<char>(0xC3)));
    not_letter |= bits(_mm_or_si128(is(static_cast<char>(0x97)), is(static_cast<char>(0xB7))));
    if constexpr (kCased<F>) {
      d0 |= bits(is(static_cast<char>(0xD0)));
      d1 |= bits(is(static_cast<char>(0xD1)));
      cont_d1 |= bits(in(v, static_cast<char>(0x80), 0x1F));
      upper_c3 |= bits(in(v, static_cast<char>(0x80), 0x1E));
      upper_d0 |= bits(in(v, static_cast<char>(0x80), 0x2F));
    }
    stop = m.high & ~(lead | cont);
  }
  m.nonascii = m.high;
  // A lead byte with its continuation byte after it, but × and ÷.
  const uint64_t symbols = c3 & (not_letter >> 1);
  const uint64_t pairs = kCased<F> ? ((c3 | d0) & (cont >> 1) & ~symbols) | (d1 & (cont_d1 >> 1))
                                   : lead & (cont >> 1) & ~symbols;
  if constexpr (kCased<F>) {
    const uint64_t uppers = ((c3 & (upper_c3 >> 1)) & ~symbols) | (d0 & (upper_d0 >> 1));
    m.upper |= uppers | uppers << 1;
  }
  const uint64_t letters = pairs | pairs << 1;
  m.letter |= letters;
  m.high &= ~letters;
  return m;
}

// Where pre-tokens start among the 64 bytes at p (p[0] starts one), as a
// mask, and in *decided how many of the bytes it decides: a bit below it
// is set if and only if a pre-token starts there. `max_digits` is k.
//
// Classes: L letters, D digits, O other (not \s, L or D; the apostrophe
// too), S blanks (\s but \r and \n), N \r and \n. A pre-token starts at
// - an L run, unless the byte before is S (that blank starts it: "\tword")
//   or a lone O that no space precedes (it starts it: ".word", "x.word");
// - an O run, unless a space precedes it (that space starts it: " .");
// - a D run, and every k digits in it;
// - a run of \s, except for the N that directly follow an O run (they end
//   its pre-token: ".\n\n");
// - the S after the last N of a run of \s (the N end "\s*[\r\n]+");
// - the last S of a run of \s before a byte that is not \s ("\s+(?!\S)"
//   leaves it to what follows, or alone);
// - Llama-3 and cl100k: after a contraction, when letters follow it
//   ("'tis": "'t", "is"); o200k: at an upper-case letter after a
//   lower-case one, and after a contraction that ends a word, when
//   letters follow it ("don'tcha": "don't", "cha"), not at its apostrophe.
template <AsciiFamily F>
inline uint64_t Starts(const char* p, size_t max_digits, unsigned* decided) {
  static_assert(kCovers<F>, "a family whose rules are here");
  const Masks m = Classify<F>(p);
  // Non-ASCII bytes and what follows them are undecided; a byte's start
  // depends on the byte after it.
  unsigned limit = m.high ? static_cast<unsigned>(__builtin_ctzll(m.high)) : static_cast<unsigned>(kBytes);
  const uint64_t ascii = limit == kBytes ? ~uint64_t{0} : (uint64_t{1} << limit) - 1;
  const uint64_t L = m.letter, D = m.digit, N = m.newline, S = m.blank, W = S | N;
  const uint64_t O = ~(L | D | W) & ascii;
  auto prev = [](uint64_t x) { return x << 1; };  // bit k: x's bit k - 1 (nothing before the block)
  auto lower_limit = [&limit](unsigned at) { limit = at < limit ? at : limit; };
  if constexpr (F == AsciiFamily::kO200k) {
    // A '/' next to a line break: a punctuation run's [\r\n/]* may take
    // it; left to the scanner.
    if (const uint64_t cut = m.slash & (prev(N) | (N >> 1)) & ascii)
      lower_limit(static_cast<unsigned>(__builtin_ctzll(cut)) - (cut & 1 ? 0 : 1));
  }

  const uint64_t l_runs = L & ~prev(L);
  uint64_t starts = l_runs & ~prev(S) & ~(prev(O) & ~(O << 2) & ~(m.space << 2));
  if constexpr (F == AsciiFamily::kO200k) starts |= m.upper & prev(L & ~m.upper);
  starts |= O & ~prev(O) & ~prev(m.space);
  if (max_digits == 1) {
    starts |= D;
  } else {
    uint64_t at = D & ~prev(D);
    for (size_t k = 0; at != 0 && k < kBytes; ++k) {  // every max_digits-th digit of a run
      starts |= at;
      for (size_t d = 0; d < max_digits; ++d) at = prev(at) & D;
    }
  }
  // The N an O run's pre-token takes ([\r\n]*): the carry of the addition
  // runs through each N run that starts right after an O.
  const uint64_t taken = N & ~(N + (N & prev(O)));
  const uint64_t rest = W & ~taken;
  starts |= rest & ~prev(rest);
  // The last S of a \s run before a byte that is not \s.
  starts |= S & ~(W >> 1);
  // The S after an N: a start if no N follows in its run of \s.
  for (uint64_t after = S & prev(N & ~taken) & ascii; after != 0; after &= after - 1) {
    const unsigned q = static_cast<unsigned>(__builtin_ctzll(after));
    const uint64_t beyond = ~S >> q;  // the S run from q ends at q + ctz
    const unsigned e = q + static_cast<unsigned>(__builtin_ctzll(beyond | (uint64_t{1} << (63 - q))));
    if (e + 1 >= limit) {
      lower_limit(q);  // the run's end is not decided here
      break;
    }
    if (!((N >> e) & 1)) starts |= uint64_t{1} << q;
  }
  // Contractions: Llama-3's and cl100k's at apostrophes that start a
  // pre-token, o200k's at apostrophes after a word's letters (not after a
  // contraction's).
  const uint64_t apostrophes = m.apostrophe & ascii & (F == AsciiFamily::kO200k ? prev(L) : starts);
  unsigned suffix_end = kBytes;
  for (uint64_t ap = apostrophes; ap != 0; ap &= ap - 1) {
    const unsigned a = static_cast<unsigned>(__builtin_ctzll(ap));
    if (a + 4 >= limit) {
      lower_limit(a);
      break;
    }
    // A letter after the apostrophe that is not ASCII may fold to one
    // under (?i) (ſ to s): left to the scanner.
    if ((m.nonascii >> (a + 1)) & 3) {
      lower_limit(a);
      break;
    }
    // The contraction's length, or 0 (its bytes are ASCII: tested above).
    const unsigned n = static_cast<unsigned>(ascii_match::ContractionAt(std::string_view(p, kBytes), a) - a);
    if constexpr (F == AsciiFamily::kO200k) {
      if (n == 0 || a == suffix_end) continue;
      starts &= ~(((uint64_t{1} << n) - 1) << a);  // the word goes on to the contraction's end
      suffix_end = a + n;
    }
    if (n != 0 && ((L >> (a + n)) & 1)) starts |= uint64_t{1} << (a + n);
  }
  // A start at k depends on bytes up to k + 1.
  *decided = limit == 0 ? 0 : limit - 1;
  return starts | 1;
}
#else
template <AsciiFamily F>
inline bool Worth(const char*) { return false; }
template <AsciiFamily F>
inline uint64_t Starts(const char*, size_t, unsigned* decided) {
  *decided = 0;
  return 1;
}
#endif

}  // namespace mtok::ascii_blocks
