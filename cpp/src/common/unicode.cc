// Lookups over the generated Unicode 16.0 tables (unicode_tables.inc).
#include "common/unicode.h"

#include <algorithm>
#include <iterator>

#include "common/unicode_tables.inc"

namespace mtok::unicode {
namespace {

template <size_t N>
bool in_ranges(const CodePointRange (&ranges)[N], char32_t cp) {
  auto it = std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                             [](char32_t c, const CodePointRange& r) { return c < r.first; });
  return it != std::begin(ranges) && cp <= std::prev(it)->last;
}

}  // namespace

const char* unicode_version() { return tables::kUnicodeVersion; }

Category category(char32_t cp) {
  if (cp >= 0x110000) return Category::Cn;
  uint32_t block = tables::kCategoryBlock[cp >> 8];
  return static_cast<Category>(tables::kCategoryData[(block << 8) | (cp & 0xFF)]);
}

bool is_white_space(char32_t cp) {
  if (cp < 0x80) return cp == ' ' || (cp >= '\t' && cp <= '\r');
  return in_ranges(tables::kWhiteSpace, cp);
}

bool is_word(char32_t cp) {
  Category c = category(cp);
  if ((c >= Category::Lu && c <= Category::Me) || c == Category::Nd || c == Category::Pc) return true;
  return in_ranges(tables::kWordExtra, cp);
}

char32_t simple_fold(char32_t cp) {
  const FoldPair* end = std::end(tables::kSimpleFold);
  const FoldPair* it = std::lower_bound(std::begin(tables::kSimpleFold), end, cp,
                                        [](const FoldPair& p, char32_t c) { return p.from < c; });
  return it != end && it->from == cp ? it->to : cp;
}

const CategoryRun* category_runs(size_t* count) {
  *count = std::size(tables::kCategoryRuns);
  return tables::kCategoryRuns;
}

const FoldPair* simple_fold_pairs(size_t* count) {
  *count = std::size(tables::kSimpleFold);
  return tables::kSimpleFold;
}

int full_fold_multi(char32_t cp, char32_t out[3]) {
  const auto* end = std::end(tables::kMultiFold);
  const auto* it = std::lower_bound(std::begin(tables::kMultiFold), end, cp,
                                    [](const tables::MultiFold& m, char32_t c) { return m.from < c; });
  if (it == end || it->from != cp) return 0;
  std::copy(it->to, it->to + 3, out);
  return it->to[2] ? 3 : 2;
}

}  // namespace mtok::unicode
