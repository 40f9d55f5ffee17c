// Code-point shortcuts for the Scanner's pattern families: the words,
// numbers and punctuation runs of any script, decided from the class table
// one code point at a time. They take what the ASCII shortcuts leave (a
// pre-token with a non-ASCII character), and leave to the full scanner what
// needs more than these few cases: contractions, whitespace runs, numbers
// outside ASCII and o200k words after a combining mark.
//
// Each family below follows its pattern's alternatives in their order; the
// comments say why a skipped alternative cannot match.
#pragma once
#include <cstddef>
#include <string_view>

#include "pre_tokenizers/ascii_match.h"
#include "pre_tokenizers/scanner_classes.h"

namespace mtok {
namespace unicode_match {

using namespace scan;
constexpr size_t kUndecided = 0;

// [\r\n]* (or [\r\n/]*) after a punctuation run: ASCII bytes only.
inline size_t Trailing(std::string_view s, size_t e, bool slash) {
  namespace a = ascii_match;
  return a::AsciiRun(s, e, slash ? a::kNewline | a::kSlash : a::kNewline);
}

// GPT-2, r50k: 's...| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|<whitespace>.
inline size_t Gpt2(std::string_view s, size_t i) {
  const Cp a = CpAt(s, i);
  if (a.c == '\'') return kUndecided;  // a contraction may come first
  for (Class k : {kLetter, kNumber, kOther}) {
    if (Has(a.mask, k)) return RunOf(s, i, k);
  }
  if (a.c != ' ' || i + 1 >= s.size()) return kUndecided;  // whitespace
  const Cp b = CpAt(s, i + 1);
  for (Class k : {kLetter, kNumber, kOther}) {
    if (Has(b.mask, k)) return RunOf(s, i + 1, k);
  }
  return kUndecided;
}

// Llama-3, Qwen, cl100k: (?i:'s|...)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,k}|
// ?[^\s\p{L}\p{N}]+[\r\n]*|<whitespace>. (cl100k's possessive prefix
// changes nothing: a prefix character is never a letter.)
inline size_t Llama3(std::string_view s, size_t i) {
  const Cp a = CpAt(s, i);
  if (a.c == '\'') return kUndecided;  // a contraction comes first
  if (Has(a.mask, kLetter)) return RunOf(s, i + a.len, kLetter);
  if (Has(a.mask, kNumber)) return kUndecided;  // {1,k} counts code points
  const size_t j = i + a.len;
  if (j < s.size()) {
    const Cp b = CpAt(s, j);
    if (Has(a.mask, kNotNlLN) && Has(b.mask, kLetter)) return RunOf(s, j + b.len, kLetter);
    if (a.c == ' ' && Has(b.mask, kOther)) return Trailing(s, RunOf(s, j + b.len, kOther), false);
  }
  if (Has(a.mask, kOther)) return Trailing(s, RunOf(s, j, kOther), false);
  return kUndecided;  // whitespace
}

// o200k's two word alternatives from j, a letter or mark:
// [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+ (U* W+), else
// U+ W*, then the optional contraction.
// `first` is the character at j, which the caller has decoded.
inline size_t CasedWord(std::string_view s, size_t j, Cp first) {
  // U* W+: U* gives back characters until W+ can start, at the end of the
  // U run when a W follows it, else at the run's last character that is
  // also a W (Lm, Lo, marks); W+ then ends that character.
  size_t k = j, last_w_end = 0;
  // Each character decoded once: c, the one that ends the U run (when k
  // is not the end), is kept for the W run that may start there.
  Cp c = first;
  while (Has(c.mask, kUpperish)) {
    k += c.len;
    if (Has(c.mask, kLowerish)) last_w_end = k;
    if (k == s.size()) break;
    c = CpAt(s, k);
  }
  size_t end;
  if (k < s.size() && Has(c.mask, kLowerish)) end = RunOf(s, k + c.len, kLowerish);
  else if (last_w_end != 0) end = last_w_end;
  else if (k > j) end = k;  // U+ W*, with no W after the U run
  else return kUndecided;
  return Contraction(s, end, true);
}

// o200k: P?U*W+C?|P?U+W*C?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|<whitespace>,
// P = [^\r\n\p{L}\p{N}]. The regex tries the first word with P, without,
// then the second with and without: when P's character is no mark it is
// no U or W, so only the words after it can match.
inline size_t O200k(std::string_view s, size_t i) {
  const Cp a = CpAt(s, i);
  const bool word_char = Has(a.mask, kUpperish) || Has(a.mask, kLowerish);
  if (word_char) {
    if (!Has(a.mask, kLetter)) return kUndecided;  // a mark: also a P
    return CasedWord(s, i, a);
  }
  if (Has(a.mask, kNumber)) return kUndecided;  // {1,3} counts code points
  const size_t j = i + a.len;
  if (j < s.size()) {
    const Cp b = CpAt(s, j);
    if (Has(a.mask, kNotNlLN) && (Has(b.mask, kUpperish) || Has(b.mask, kLowerish))) return CasedWord(s, j, b);
    if (a.c == ' ' && Has(b.mask, kOther)) return Trailing(s, RunOf(s, j + b.len, kOther), true);
  }
  if (Has(a.mask, kOther)) return Trailing(s, RunOf(s, j, kOther), true);
  return kUndecided;  // whitespace
}

}  // namespace unicode_match

// End of the match that starts at i (< s.size()), or 0 (undecided).
template <AsciiFamily F>
inline size_t UnicodeMatch(std::string_view s, size_t i) {
  if constexpr (F == AsciiFamily::kGpt2) return unicode_match::Gpt2(s, i);
  else if constexpr (F == AsciiFamily::kLlama3 || F == AsciiFamily::kCl100k) return unicode_match::Llama3(s, i);
  else if constexpr (F == AsciiFamily::kO200k) return unicode_match::O200k(s, i);
  else return unicode_match::kUndecided;
}

}  // namespace mtok
