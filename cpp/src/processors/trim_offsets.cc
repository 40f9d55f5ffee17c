#include "common/unicode.h"
#include "common/utf8.h"
#include "processors/template.h"

namespace mtok {
namespace {

// HF counts chars that are the byte-level space 'Ġ' or Unicode whitespace.
bool IsSpaceChar(char32_t c) { return c == 0x120 || unicode::is_white_space(c); }

size_t LeadingSpaces(const std::string& s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size();) {
    int len;
    char32_t c = utf8::decode(s, i, &len);
    if (!IsSpaceChar(c)) break;
    ++n;
    i += len;
  }
  return n;
}

size_t TrailingSpaces(const std::string& s) {
  size_t n = 0;
  size_t end = s.size();
  while (end > 0) {
    size_t k = end - 1;
    while (k > 0 && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) --k;
    int len;
    if (!IsSpaceChar(utf8::decode(s, k, &len))) break;
    ++n;
    end = k;
  }
  return n;
}

}  // namespace

void TrimOffsets(Encoding* e, bool add_prefix_space) {
  for (size_t i = 0; i < e->tokens.size() && i < e->offsets.size(); ++i) {
    auto& off = e->offsets[i];
    size_t leading = LeadingSpaces(e->tokens[i]);
    const size_t trailing = TrailingSpaces(e->tokens[i]);
    if (leading > 0) {
      // A single space that add_prefix_space put before the first token is kept.
      const bool is_first = i == 0 || off.first == 0;
      if (is_first && add_prefix_space && leading == 1) leading = 0;
      off.first = static_cast<uint32_t>(std::min<size_t>(off.first + leading, off.second));
    }
    if (trailing > 0 && off.second >= trailing) {
      off.second = static_cast<uint32_t>(std::max<size_t>(off.second - trailing, off.first));
    }
  }
  for (Encoding& o : e->overflowing) TrimOffsets(&o, add_prefix_space);
}

}  // namespace mtok
