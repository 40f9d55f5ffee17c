#include "common/grapheme.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/utf8.h"

namespace mtok::unicode {
namespace {

struct GraphemeRun {
  char32_t start;
  uint8_t value;
};
#include "common/grapheme_tables.inc"

enum Gcb : uint8_t {
  kOther, kCR, kLF, kControl, kExtend, kZWJ, kRegional, kPrepend, kSpacingMark,
  kL, kV, kT, kLV, kLVT,
};
enum InCB : uint8_t { kNoIncb, kLinker, kConsonant, kIncbExtend };

struct Props {
  Gcb gcb;
  bool pictographic;
  InCB incb;
};

uint8_t SearchRuns(char32_t cp) {
  const GraphemeRun* end = kGraphemeRuns + sizeof(kGraphemeRuns) / sizeof(kGraphemeRuns[0]);
  const GraphemeRun* it =
      std::upper_bound(kGraphemeRuns, end, cp, [](char32_t c, const GraphemeRun& r) { return c < r.start; });
  return (it - 1)->value;
}

// The properties byte of every BMP code point (64 KB, built on first use):
// clustering runs per character, a binary search each time would dominate.
const uint8_t* BmpProps() {
  static const std::vector<uint8_t> table = [] {
    std::vector<uint8_t> t(0x10000);
    const size_t n = sizeof(kGraphemeRuns) / sizeof(kGraphemeRuns[0]);
    for (size_t i = 0; i < n && kGraphemeRuns[i].start < 0x10000; ++i) {
      const char32_t end = i + 1 < n ? std::min<char32_t>(kGraphemeRuns[i + 1].start, 0x10000) : 0x10000;
      std::fill(t.begin() + kGraphemeRuns[i].start, t.begin() + end, kGraphemeRuns[i].value);
    }
    return t;
  }();
  return table.data();
}

Props PropsOf(char32_t cp) {
  static const uint8_t* bmp = BmpProps();
  const uint8_t v = cp < 0x10000 ? bmp[cp] : SearchRuns(cp);
  return Props{static_cast<Gcb>(v & 15), (v & 16) != 0, static_cast<InCB>((v >> 5) & 3)};
}

bool IsControlLike(Gcb g) { return g == kCR || g == kLF || g == kControl; }

}  // namespace

bool IsPlainClusterStart(char32_t cp) {
  const Props p = PropsOf(cp);
  return p.gcb == kOther && p.incb == kNoIncb;
}

bool JoinsPrevious(char32_t cp) {
  const Gcb g = PropsOf(cp).gcb;
  return g == kExtend || g == kZWJ || g == kSpacingMark;
}

size_t GraphemeLength(std::string_view text, size_t at) {
  int len;
  Props prev = PropsOf(utf8::decode(text, at, &len));
  size_t pos = at + len;
  // Context for the rules that look further back than one code point.
  // GB11 state: 0 none, 1 after ExtPict Extend*, 2 after ExtPict Extend* ZWJ.
  int emoji = prev.pictographic ? 1 : 0;
  bool conjunct = prev.incb == kConsonant;  // GB9c: Consonant [Extend Linker]*
  bool conjunct_linked = false;             // ... with at least one Linker
  int regional = prev.gcb == kRegional ? 1 : 0;
  while (pos < text.size()) {
    Props cur = PropsOf(utf8::decode(text, pos, &len));
    bool join;
    if (prev.gcb == kCR && cur.gcb == kLF) {
      join = true;  // GB3
    } else if (IsControlLike(prev.gcb) || IsControlLike(cur.gcb)) {
      join = false;  // GB4, GB5
    } else if (prev.gcb == kL && (cur.gcb == kL || cur.gcb == kV || cur.gcb == kLV || cur.gcb == kLVT)) {
      join = true;  // GB6
    } else if ((prev.gcb == kLV || prev.gcb == kV) && (cur.gcb == kV || cur.gcb == kT)) {
      join = true;  // GB7
    } else if ((prev.gcb == kLVT || prev.gcb == kT) && cur.gcb == kT) {
      join = true;  // GB8
    } else if (cur.gcb == kExtend || cur.gcb == kZWJ || cur.gcb == kSpacingMark) {
      join = true;  // GB9, GB9a
    } else if (prev.gcb == kPrepend) {
      join = true;  // GB9b
    } else if (cur.incb == kConsonant && conjunct && conjunct_linked) {
      join = true;  // GB9c
    } else if (cur.pictographic && emoji == 2) {
      join = true;  // GB11
    } else if (prev.gcb == kRegional && cur.gcb == kRegional && regional % 2 == 1) {
      join = true;  // GB12, GB13
    } else {
      join = false;  // GB999
    }
    if (!join) break;
    // Update the look-back state with cur.
    if (cur.pictographic) {
      emoji = 1;
    } else if (emoji == 1 && cur.gcb == kExtend) {
      emoji = 1;
    } else if (emoji == 1 && cur.gcb == kZWJ) {
      emoji = 2;
    } else {
      emoji = 0;
    }
    if (cur.incb == kConsonant) {
      conjunct = true;
      conjunct_linked = false;
    } else if (conjunct && cur.incb == kLinker) {
      conjunct_linked = true;
    } else if (conjunct && cur.incb != kIncbExtend) {
      conjunct = false;
      conjunct_linked = false;
    }
    regional = cur.gcb == kRegional ? regional + 1 : 0;
    prev = cur;
    pos += len;
  }
  return pos - at;
}

}  // namespace mtok::unicode
