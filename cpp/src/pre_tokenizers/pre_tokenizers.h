// Factories for every pre-tokenizer. Each variant lives in its own file.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/regex.h"
#include "pre_tokenizers/scanner.h"
#include "pipeline.h"

namespace mtok {

using PreTokenizerPtr = std::unique_ptr<PreTokenizer>;

// How the pieces of a split are kept (HF SplitDelimiterBehavior).
enum class SplitBehavior : uint8_t {
  kRemoved = 0, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous,
};

// A matcher finds pattern matches in a piece: a regex or a literal string.
struct SplitPattern {
  std::unique_ptr<Regex> regex;      // set for regex patterns
  std::unique_ptr<Scanner> scanner;  // same matches, faster, for known patterns
  std::string literal;           // used when regex is null
  void FindAll(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const;
};

// Splits p by the matches of `pattern` with HF's semantics; appends the
// resulting non-empty pieces to out.
void SplitPiece(const Piece& p, const std::vector<std::pair<size_t, size_t>>& matches,
                SplitBehavior behavior, bool invert, std::vector<Piece>* out);

PreTokenizerPtr MakeSequencePreTokenizer(std::vector<PreTokenizerPtr> parts);
PreTokenizerPtr MakeByteLevelPreTokenizer(bool add_prefix_space, bool use_regex);
PreTokenizerPtr MakeSplitPreTokenizer(SplitPattern pattern, SplitBehavior behavior, bool invert);
PreTokenizerPtr MakeDigitsPreTokenizer(bool individual_digits);

// When Metaspace prepends its replacement (HF PrependScheme).
enum class PrependScheme : uint8_t { kAlways = 0, kFirst = 1, kNever = 2 };
PreTokenizerPtr MakeMetaspacePreTokenizer(char32_t replacement, PrependScheme scheme, bool split);
PreTokenizerPtr MakeWhitespaceSplitPreTokenizer();
// HF Whitespace; `pattern` is `\w+|[^\w\s]+` compiled (kWhitespacePattern).
constexpr const char* kWhitespacePattern = "\\w+|[^\\w\\s]+";
PreTokenizerPtr MakeWhitespacePreTokenizer(std::unique_ptr<Regex> pattern);
PreTokenizerPtr MakeBertPreTokenizer();
PreTokenizerPtr MakePunctuationPreTokenizer(SplitBehavior behavior);
PreTokenizerPtr MakeCharDelimiterPreTokenizer(char32_t delimiter);

}  // namespace mtok
