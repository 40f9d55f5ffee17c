// A backtracking regex engine over UTF-8 text with Perl-style leftmost-first
// semantics, for HF Split pre-tokenizers, regex Replace normalizers and
// tiktoken pat_str. It runs exactly what it accepts: any construct whose
// meaning it cannot reproduce for the chosen dialect is rejected at compile
// time with UnsupportedError (never approximated).
//
// Supported: literals and escapes (\t \n \r \f \v \a \e \xHH \x{..} \uHHHH,
// escaped punctuation), `.`, classes with ranges, negation and nesting,
// \p{..} \P{..} (general categories, long names, Any, White_Space, Word),
// \d \D \s \S \w \W, groups (capturing groups are plain groups), (?:..),
// flags i/m/s as the dialect defines them, (?flags:..), quantifiers
// * + ? {n} {n,} {n,m} greedy, lazy and possessive, lookahead (?=..) (?!..),
// atomic groups (?>..), anchors ^ $ \A \z, alternation.
//
// Matching never recurses on the input: backtracking uses a heap stack, and
// repetitions of one character class keep O(1) stack. Cost is linear on the
// GPT-2, cl100k/Llama-3, Qwen and o200k patterns for any input. In general a
// backtracking search can be quadratic (a pattern that scans to the end of
// the text and fails, at every start position) or exponential with nested
// quantifiers, like Oniguruma and fancy-regex themselves; a budget per match
// attempt turns the exponential case into an error (see FindAll).
#pragma once
#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "mtok/status.h"

namespace mtok {

// Whose syntax and semantics a pattern follows. They differ in ^ $ (?m) (?s),
// \w, {n}? and {n,m}+, (?i) on classes and properties, and the scope of an
// inline (?flags).
enum class RegexDialect : unsigned char {
  kOniguruma,  // HF tokenizers: tokenizer.json Split and Replace regexes (Ruby syntax)
  kRust,       // tiktoken pat_str: fancy-regex over the regex crate
};

namespace regex_internal {
struct Program;
}

class Regex {
 public:
  // Compiles a pattern (UTF-8) in the Oniguruma dialect, the one
  // tokenizer.json regexes use. Unsupported syntax returns UnsupportedError
  // naming the construct and its byte offset in the pattern; a malformed
  // pattern returns FormatError.
  static Status Compile(std::string_view pattern, std::unique_ptr<Regex>* out);
  static Status Compile(std::string_view pattern, RegexDialect dialect,
                        std::unique_ptr<Regex>* out);
  ~Regex();

  // All non-overlapping matches as (begin, end) byte offsets of valid UTF-8
  // `text`, as find_iter in Oniguruma's Rust binding and in the regex crate:
  // after a match the search resumes at its end; an empty match is skipped
  // when it ends where the previous match ended, and the next search then
  // starts one character later. Anchors and lookahead see all of text.
  // Thread-safe: const, no shared mutable state.
  //
  // A match attempt that backtracks more than its budget (regex_program.h:
  // 10 million resumptions plus 64 per byte it reached) stops the search
  // with EncodeError; *out then holds the matches found before it.
  [[nodiscard]] Status FindAll(std::string_view text,
                               std::vector<std::pair<size_t, size_t>>* out) const;

 private:
  explicit Regex(std::unique_ptr<regex_internal::Program> program);
  std::unique_ptr<regex_internal::Program> program_;
};

}  // namespace mtok
