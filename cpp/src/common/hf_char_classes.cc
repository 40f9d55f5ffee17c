#include "common/hf_char_classes.h"

#include <algorithm>
#include <iterator>

#include "common/unicode.h"

namespace mtok::unicode {
namespace {

#include "common/hf_char_classes.inc"

template <size_t N>
bool InRanges(const CodePointRange (&table)[N], char32_t cp) {
  const CodePointRange* it = std::upper_bound(
      std::begin(table), std::end(table), cp, [](char32_t c, const CodePointRange& r) { return c < r.first; });
  return it != std::begin(table) && cp <= (it - 1)->last;
}

}  // namespace

bool IsBertOther(char32_t cp) { return InRanges(kBertOther, cp); }
bool IsBertPunctuation(char32_t cp) { return InRanges(kBertPunctuation, cp); }
bool IsBertMn(char32_t cp) { return InRanges(kBertMn, cp); }
bool IsCombiningMark(char32_t cp) { return InRanges(kCombiningMark, cp); }

}  // namespace mtok::unicode
