// The character classes of HF's BertNormalizer, shared by the normalizer
// and the fused WordPiece route (fast_paths/bert_code_points.h).
#pragma once
#include "common/hf_char_classes.h"
#include "common/unicode.h"

namespace mtok::bert {

inline bool IsWhitespace(char32_t c) {
  return c == '\t' || c == '\n' || c == '\r' || unicode::is_white_space(c);
}

// The unicode_categories crate's is_other: Cc, Cf, Co (not Cn), Unicode 8.0.
inline bool IsControl(char32_t c) {
  if (c == '\t' || c == '\n' || c == '\r') return false;
  return unicode::IsBertOther(c);
}

// clean_text drops these.
inline bool IsCleaned(char32_t c) { return c == 0 || c == 0xFFFD || IsControl(c); }

inline bool IsChineseChar(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

}  // namespace mtok::bert
