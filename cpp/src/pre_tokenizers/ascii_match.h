// ASCII shortcuts for the Scanner's pattern families. Most pre-tokens of
// English text and code (a word, number or punctuation run, with its
// leading space or prefix character, or a whitespace run) are decided from
// a byte table here; whatever needs a non-ASCII byte or an apostrophe to be
// decided is left to the full scanner, so the matches stay exact.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mtok {

enum class AsciiFamily : uint8_t {
  kNone,
  kGpt2,    // 's...| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|... (GPT-2, r50k, p50k)
  kLlama3,  // [^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,k}| ?[^\s\p{L}\p{N}]+[\r\n]*|... (Llama-3, Qwen)
  kCl100k,  // the same words; whitespace starts with \s++$
  kO200k,   // cased words with a contraction suffix, \p{N}{1,3}, ...[\r\n/]*
};

// End of the match that starts at i (< s.size()), or 0 when ASCII alone
// cannot decide it. `max_digits` bounds \p{N} runs (0: unbounded).
size_t AsciiMatch(AsciiFamily family, size_t max_digits, std::string_view s, size_t i);

}  // namespace mtok
