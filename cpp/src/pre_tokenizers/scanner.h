// Hand-written matchers for the split regexes of the common byte-level BPE
// tokenizers (GPT-2/r50k, cl100k/Llama-3, Qwen2/3, o200k), recognised by
// their exact pattern text. Each pattern is an ordered list of alternatives
// (leftmost-first, as in the regex), each alternative a small loop over
// Unicode categories. They give exactly the regex engine's matches (a test
// compares them on the corpus and random text) at a fraction of the cost.
#pragma once
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "common/regex.h"
#include "pre_tokenizers/ascii_match.h"

namespace mtok {

class Scanner {
 public:
  ~Scanner();
  // The scanner for `pattern`, or null when the pattern is not one we know.
  static std::unique_ptr<Scanner> ForPattern(std::string_view pattern, RegexDialect dialect);

  // All matches, as Regex::FindAll gives them (appended to *out).
  void FindAll(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const;

  // One alternative of a pattern (see scanner.cc).
  struct Alt;

 private:
  Scanner();
  // End of the match starting at i, or i when no alternative matches there.
  size_t MatchAt(std::string_view s, size_t i) const;
  std::vector<Alt> alts_;
  AsciiFamily ascii_ = AsciiFamily::kNone;  // shortcut tried before alts_
  size_t max_digits_ = 0;
};

}  // namespace mtok
