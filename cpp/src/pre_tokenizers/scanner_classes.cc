#include "pre_tokenizers/scanner_classes.h"

#include "common/unicode.h"

namespace mtok::scan {

namespace {

using unicode::Category;

bool Compute(Class k, char32_t c) {
  switch (k) {
    case kLetter: return unicode::is_letter(c);
    case kNumber: return unicode::is_number(c);
    case kSpace: return unicode::is_white_space(c);
    case kNotNlLN: return c != '\r' && c != '\n' && !unicode::is_letter(c) && !unicode::is_number(c);
    case kOther: return !unicode::is_white_space(c) && !unicode::is_letter(c) && !unicode::is_number(c);
    case kUpperish: {
      Category g = unicode::category(c);
      return g == Category::Lu || g == Category::Lt || g == Category::Lm || g == Category::Lo ||
             unicode::is_mark(c);
    }
    case kLowerish: {
      Category g = unicode::category(c);
      return g == Category::Ll || g == Category::Lm || g == Category::Lo || unicode::is_mark(c);
    }
    case kNewline: return c == '\r' || c == '\n';
    case kNewlineSlash: return c == '\r' || c == '\n' || c == '/';
    case kLiteralSpace: return c == ' ';
  }
  return false;
}

constexpr int kClasses = kLiteralSpace + 1;
constexpr uint16_t kKnown = 1u << 15;  // makes every computed mask non-zero

uint16_t ComputeMask(char32_t c) {
  uint16_t m = kKnown;
  for (int k = 0; k < kClasses; ++k) m |= Compute(static_cast<Class>(k), c) ? (1u << k) : 0;
  return m;
}

}  // namespace

MaskTables::MaskTables() : bmp(new std::atomic<uint16_t>[0x10000]()) {
  for (char32_t c = 0; c < 128; ++c) ascii[c] = ComputeMask(c);
}

const MaskTables kMasks;

uint16_t MaskSlow(char32_t c) {
  const uint16_t m = ComputeMask(c);
  if (c < 0x10000) kMasks.bmp[c].store(m, std::memory_order_relaxed);
  return m;
}

size_t Contraction(std::string_view s, size_t i, bool fold) {
  if (i >= s.size() || s[i] != '\'') return i;
  auto letter = [&](size_t at, char want, size_t* next) {
    if (at >= s.size()) return false;
    int len;
    char32_t c = At(s, at, &len);
    if (fold) c = unicode::simple_fold(c);
    *next = at + len;
    return c == static_cast<char32_t>(want);
  };
  static const char* const kSuffixes[] = {"s", "t", "re", "ve", "m", "ll", "d"};
  for (const char* suffix : kSuffixes) {
    size_t at = i + 1, next;
    bool ok = true;
    for (const char* p = suffix; *p && ok; ++p) {
      ok = letter(at, *p, &next);
      at = next;
    }
    if (ok) return at;
  }
  return i;
}

}  // namespace mtok::scan
