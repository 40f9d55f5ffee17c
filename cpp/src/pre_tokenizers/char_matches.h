// HF's char-predicate patterns: every character for which the predicate
// holds is a match of its own (consecutive ones are not merged).
#pragma once
#include <string_view>
#include <utility>
#include <vector>

#include "common/utf8.h"

namespace mtok {

template <typename Pred>
void CharMatches(std::string_view text, Pred pred, std::vector<std::pair<size_t, size_t>>* out) {
  out->clear();
  for (size_t i = 0; i < text.size();) {
    int len;
    char32_t cp = utf8::decode(text, i, &len);
    if (pred(cp)) out->emplace_back(i, i + len);
    i += len;
  }
}

}  // namespace mtok
