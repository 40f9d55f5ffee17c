#include "pre_tokenizers/scanner_classes.h"

#include "common/unicode.h"

namespace mtok::scan {

namespace {

using unicode::Category;

constexpr uint16_t kKnown = 1u << 15;  // makes every computed mask non-zero

// Every class of c from one category lookup and one White_Space lookup
// (a binary search each; asking per class took ten of them, a tenth of a
// first window's instructions in a fresh process).
uint16_t ComputeMask(char32_t c) {
  const Category g = unicode::category(c);
  const bool letter = g >= Category::Lu && g <= Category::Lo;
  const bool number = g >= Category::Nd && g <= Category::No;
  const bool mark = g >= Category::Mn && g <= Category::Me;
  const bool space = unicode::is_white_space(c);
  const bool newline = c == '\r' || c == '\n';
  auto bit = [](bool on, Class k) { return on ? static_cast<uint16_t>(1u << k) : uint16_t{0}; };
  return kKnown | bit(letter, kLetter) | bit(number, kNumber) | bit(space, kSpace) |
         bit(!newline && !letter && !number, kNotNlLN) | bit(!space && !letter && !number, kOther) |
         bit(g == Category::Lu || g == Category::Lt || g == Category::Lm || g == Category::Lo || mark, kUpperish) |
         bit(g == Category::Ll || g == Category::Lm || g == Category::Lo || mark, kLowerish) |
         bit(newline, kNewline) | bit(newline || c == '/', kNewlineSlash) | bit(c == ' ', kLiteralSpace);
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

size_t ApostropheContraction(std::string_view s, size_t i, bool fold) {
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
