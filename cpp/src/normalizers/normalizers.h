// Factories for every normalizer. Each variant lives in its own file.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/regex.h"
#include "common/unicode_norm.h"
#include "normalizers/charsmap.h"
#include "pipeline.h"

namespace mtok {

using NormalizerPtr = std::unique_ptr<Normalizer>;

NormalizerPtr MakeSequenceNormalizer(std::vector<NormalizerPtr> parts);
NormalizerPtr MakePrependNormalizer(std::string prepend);
NormalizerPtr MakeReplaceNormalizer(std::string pattern, std::string content);
NormalizerPtr MakeRegexReplaceNormalizer(std::unique_ptr<Regex> pattern, std::string content);
// Regex patterns of the form `X{n,}` (X an ASCII letter, digit or space)
// run without the regex engine: ParseRunPattern recognises them.
bool ParseRunPattern(std::string_view pattern, char* c, size_t* min);
NormalizerPtr MakeRunReplaceNormalizer(char c, size_t min, std::string content);
NormalizerPtr MakeStripNormalizer(bool left, bool right);
NormalizerPtr MakeUnicodeFormNormalizer(unicode::NormForm form);
NormalizerPtr MakeLowercaseNormalizer();
NormalizerPtr MakeStripAccentsNormalizer();
// MNN's per-code-point table (seed codes 6 and 7): each code point found in
// the table is replaced by its entry; no composition across code points.
NormalizerPtr MakeCodePointTableNormalizer(std::vector<std::pair<char32_t, std::string_view>> table);
NormalizerPtr MakeBertNormalizer(bool clean_text, bool handle_chinese_chars, bool strip_accents,
                                 bool lowercase);
// HF's Precompiled (grapheme walk, shortest rule; tokenizer.json sources).
NormalizerPtr MakePrecompiledNormalizer(Charsmap map);

// SentencePiece's own normalizer (.model sources). With every option off and
// no user-defined symbols it is the charsmap alone, leftmost-longest.
struct SpmNormalizerOptions {
  Charsmap charsmap;  // may be empty
  bool add_dummy_prefix = false;
  bool remove_extra_whitespaces = false;
  bool escape_whitespaces = false;
  bool treat_whitespace_as_suffix = false;
  std::vector<std::string_view> user_defined;  // kept verbatim, longest match first
};
NormalizerPtr MakeSentencePieceNormalizer(SpmNormalizerOptions options);

}  // namespace mtok
