// Character classes that HF tokenizers takes from old Unicode tables (the
// unicode_categories crate: Unicode 8.0; unicode-normalization-alignments:
// 9.0). Measured on the reference by tools/gen_hf_char_classes.py.
#pragma once

namespace mtok::unicode {

bool IsBertOther(char32_t cp);        // Cc, Cf, Co (BertNormalizer's is_control)
bool IsBertPunctuation(char32_t cp);  // ASCII punctuation or P* (Bert, Punctuation)
bool IsBertMn(char32_t cp);           // Mn (BertNormalizer's accent stripping)
bool IsCombiningMark(char32_t cp);    // M (the StripAccents normalizer)

}  // namespace mtok::unicode
