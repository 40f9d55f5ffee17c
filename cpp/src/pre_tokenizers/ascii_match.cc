#include "pre_tokenizers/ascii_match.h"

#include "common/unicode.h"

namespace mtok {
namespace {

enum : uint8_t {
  kUpper = 1, kLower = 2, kDigit = 4, kSpace = 8, kOther = 16, kNewline = 32, kHigh = 64, kSlash = 128,
  kLetter = kUpper | kLower,
};

// Classes of each byte: \s is White_Space, "other" is [^\s\p{L}\p{N}].
struct ByteClasses {
  uint8_t of[256];
  ByteClasses() {
    for (int b = 0; b < 256; ++b) {
      const char32_t c = static_cast<char32_t>(b);
      if (b >= 0x80) of[b] = kHigh;
      else if (c >= 'A' && c <= 'Z') of[b] = kUpper;
      else if (c >= 'a' && c <= 'z') of[b] = kLower;
      else if (c >= '0' && c <= '9') of[b] = kDigit;
      else if (unicode::is_white_space(c)) of[b] = kSpace | (c == '\r' || c == '\n' ? kNewline : 0);
      else of[b] = kOther | (c == '/' ? kSlash : 0);
    }
  }
};
const ByteClasses kBytes;

constexpr size_t kUndecided = 0;

inline uint8_t ClassAt(std::string_view s, size_t i) {
  return i < s.size() ? kBytes.of[static_cast<uint8_t>(s[i])] : 0;
}

// End of the run of `mask` bytes from i (at most `max`, 0 = no limit), or
// kUndecided when it stops at a non-ASCII byte that might continue it.
inline size_t Run(std::string_view s, size_t i, uint8_t mask, size_t max = 0) {
  const size_t limit = max && s.size() - i > max ? i + max : s.size();
  while (i < limit) {
    const uint8_t k = kBytes.of[static_cast<uint8_t>(s[i])];
    if (!(k & mask)) return (k & kHigh) ? kUndecided : i;
    ++i;
  }
  return i;
}

// End of the run of `mask` bytes from i, for an ASCII-only class (a
// non-ASCII byte ends it).
inline size_t AsciiRun(std::string_view s, size_t i, uint8_t mask) {
  while (i < s.size() && (kBytes.of[static_cast<uint8_t>(s[i])] & mask)) ++i;
  return i;
}

// o200k's optional (?i:'s|'t|'re|'ve|'m|'ll|'d) at i.
size_t Contraction(std::string_view s, size_t i) {
  if (i >= s.size() || s[i] != '\'') return i;
  auto lower = [&](size_t at) -> int {
    const uint8_t k = ClassAt(s, at);
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

// o200k's [\p{Lu}...]*[\p{Ll}...]+ or [\p{Lu}...]+[\p{Ll}...]* from i (a
// letter), then the contraction: on ASCII letters both give the upper
// run followed by the lower run.
size_t CasedWord(std::string_view s, size_t i) {
  size_t e = Run(s, i, kUpper);
  if (e == kUndecided) return kUndecided;
  e = Run(s, e, kLower);
  if (e == kUndecided) return kUndecided;
  return Contraction(s, e);
}

// The whitespace alternatives at i (a whitespace byte): GPT-2 and r50k
// \s+(?!\S)|\s+ (r50k's \s++$ and \s agree); Llama-3 and o200k put
// \s*[\r\n]+ first; cl100k puts \s++$ before \s*[\r\n].
size_t Spaces(std::string_view s, size_t i, AsciiFamily family) {
  size_t e = i, last_newline = std::string_view::npos;
  for (; e < s.size(); ++e) {
    const uint8_t k = kBytes.of[static_cast<uint8_t>(s[e])];
    if (!(k & kSpace)) {
      if (k & kHigh) return kUndecided;  // U+00A0 and others are \s too
      break;
    }
    if (k & kNewline) last_newline = e;
  }
  const bool at_end = e == s.size();
  if (family == AsciiFamily::kCl100k && at_end) return e;
  if (family != AsciiFamily::kGpt2 && last_newline != std::string_view::npos) return last_newline + 1;
  if (at_end) return e;
  return e - i >= 2 ? e - 1 : e;  // the last space goes with what follows
}

size_t Gpt2(std::string_view s, size_t i) {
  const uint8_t c = ClassAt(s, i);
  if (s[i] == '\'') return kUndecided;  // contractions come first
  if (c & kLetter) return Run(s, i, kLetter);
  if (c & kDigit) return Run(s, i, kDigit);
  if (c & kOther) return Run(s, i, kOther);
  if (s[i] == ' ') {
    const uint8_t next = ClassAt(s, i + 1);
    if (next & kLetter) return Run(s, i + 1, kLetter);
    if (next & kDigit) return Run(s, i + 1, kDigit);
    if (next & kOther) return Run(s, i + 1, kOther);
    if (next & kHigh) return kUndecided;
  }
  return (c & kSpace) ? Spaces(s, i, AsciiFamily::kGpt2) : kUndecided;
}

// Llama-3/Qwen/cl100k and o200k share their shape: an optional prefix
// character before a word ([^\r\n\p{L}\p{N}]?), \p{N}{1,k}, then
// ` ?[^\s\p{L}\p{N}]+` with trailing `trailing` bytes, then whitespace.
// They differ in the word (`word(s, at)`, from a letter) and contractions.
template <typename Word>
size_t PrefixedWords(std::string_view s, size_t i, AsciiFamily family, size_t max_digits,
                     uint8_t trailing, Word word) {
  const uint8_t c = ClassAt(s, i);
  if (c & kLetter) return word(s, i);
  if (c & kDigit) return Run(s, i, kDigit, max_digits);
  const uint8_t next = ClassAt(s, i + 1);
  const bool prefix = (c & kOther) || ((c & kSpace) && !(c & kNewline));
  if (prefix && (next & kLetter)) return word(s, i + 1);
  if (next & kHigh) return kUndecided;
  size_t from;
  if (c & kOther) from = i;
  else if (s[i] == ' ' && (next & kOther)) from = i + 1;
  else return Spaces(s, i, family);
  const size_t e = Run(s, from, kOther);
  return e == kUndecided ? kUndecided : AsciiRun(s, e, trailing);
}

size_t LetterRun(std::string_view s, size_t i) { return Run(s, i, kLetter); }

}  // namespace

size_t AsciiMatch(AsciiFamily family, size_t max_digits, std::string_view s, size_t i) {
  if (kBytes.of[static_cast<uint8_t>(s[i])] & kHigh) return kUndecided;
  switch (family) {
    case AsciiFamily::kGpt2: return Gpt2(s, i);
    case AsciiFamily::kLlama3:
    case AsciiFamily::kCl100k:
      if (s[i] == '\'') return kUndecided;  // contractions come first
      return PrefixedWords(s, i, family, max_digits, kNewline, LetterRun);
    case AsciiFamily::kO200k:  // '/' is already in the punctuation run
      return PrefixedWords(s, i, family, max_digits, kNewline | kSlash, CasedWord);
    case AsciiFamily::kNone: break;
  }
  return kUndecided;
}

}  // namespace mtok
