// Hand-written matchers for the split regexes of the common byte-level BPE
// tokenizers (GPT-2/r50k, cl100k/Llama-3, Qwen2/3, o200k), recognised by
// their exact pattern text. Each pattern is an ordered list of alternatives
// (leftmost-first, as in the regex), each alternative a small loop over
// Unicode categories. Most pre-tokens never reach that list: each family's
// shortcuts decide them first, 64 bytes of ASCII text at a time
// (ascii_blocks.h: Llama-3, cl100k, o200k, with the two-byte letters of
// Latin and Cyrillic text), else from bytes
// (ascii_match.h), else one code point at a time (unicode_match.h). They
// give exactly the regex engine's matches (a test compares them on the
// corpus and random text) at a fraction of the cost.
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

  using Span = std::pair<size_t, size_t>;  // [begin, end) of a match

  // All matches, as Regex::FindAll gives them (appended to *out).
  void FindAll(std::string_view text, std::vector<Span>* out) const;

  // The next matches from byte `from` on, at most `cap` of them, into out;
  // returns how many. *next is where to resume: text.size() when done.
  // The caller's buffer stays small, so a long text needs no match vector.
  size_t FindSome(std::string_view text, size_t from, Span* out, size_t cap, size_t* next) const {
    return find_some_(*this, text, from, out, cap, next);
  }

  // True when every match ends at byte p of s (0 < p < s.size(), s[p - 1]
  // a line break) whatever text comes before s[p - 5] or after s[p + 3],
  // and the matches of s[0, p) and s[p, end) apart are those of s: the
  // character at p is not white space, and no match takes a line break
  // together with a character after it (only o200k's punctuation run,
  // with '/'). The line break ends its white space run's match with the
  // text cut there or not: a pattern that tries \s*[\r\n]+ before
  // \s+(?!\S) takes the run whole either way; one without it (GPT-2)
  // only when the break is the run's only character.
  bool AlwaysSplitsAfterNewline(std::string_view s, size_t p) const;

  // One alternative of a pattern (see scanner.cc).
  struct Alt;

 private:
  Scanner();
  // End of the match starting at i, or i when no alternative matches there.
  size_t MatchAt(std::string_view s, size_t i) const;
  // FindSome for one family's ASCII shortcut (inlined into its loop).
  template <AsciiFamily F>
  static size_t FindSomeFor(const Scanner& self, std::string_view s, size_t from, Span* out, size_t cap,
                            size_t* next);

  std::vector<Alt> alts_;
  size_t max_digits_ = 0;  // of \p{N} runs, for the ASCII shortcut
  // \s*[\r\n]+ (or \s*[\r\n]) comes before \s+(?!\S): a white space
  // run ending in a line break is one match, at the end of the text or not.
  bool newline_ends_runs_ = false;
  bool slash_after_newline_ = false;  // a match may go on from a line break into '/'
  size_t (*find_some_)(const Scanner&, std::string_view, size_t, Span*, size_t, size_t*) = nullptr;
};

}  // namespace mtok
