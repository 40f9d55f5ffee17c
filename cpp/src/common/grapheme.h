// Extended grapheme cluster boundaries (UAX #29, including GB9c Indic
// conjuncts and GB11 emoji sequences), as the unicode-segmentation crate that
// HF tokenizers' Precompiled normalizer uses computes them.
#pragma once
#include <cstddef>
#include <string_view>

namespace mtok::unicode {

// Byte length of the grapheme cluster starting at byte `at` of valid UTF-8
// `text` (at < text.size()).
size_t GraphemeLength(std::string_view text, size_t at);

// A shortcut for callers that walk clusters: a cluster that starts with a
// plain character (Grapheme_Cluster_Break Other, no Indic_Conjunct_Break)
// ends after it unless the next character joins its predecessor (Extend,
// ZWJ, SpacingMark).
bool IsPlainClusterStart(char32_t cp);
bool JoinsPrevious(char32_t cp);

}  // namespace mtok::unicode
