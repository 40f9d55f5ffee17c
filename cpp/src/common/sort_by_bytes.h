// Sorting by byte strings held elsewhere (an arena, a file): each item's
// first 8 bytes, big-endian, are compared first, so most comparisons read
// no string (a converter sorting a 200k vocab spent most of it in memcmp
// on tokens all over memory).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace mtok {

inline uint64_t BytePrefixKey(std::string_view s) {
  uint64_t k = 0;
  for (size_t i = 0; i < 8; ++i) k = (k << 8) | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0);
  return k;
}

// Sorts `items` by bytes_of(item), items of equal bytes by tie(a, b).
template <typename T, typename BytesOf, typename Tie>
void SortByBytes(std::vector<T>* items, BytesOf bytes_of, Tie tie) {
  struct Key {
    uint64_t prefix;
    uint32_t at;
  };
  std::vector<Key> keys(items->size());
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = {BytePrefixKey(bytes_of((*items)[i])), static_cast<uint32_t>(i)};
  std::sort(keys.begin(), keys.end(), [&](const Key& a, const Key& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    const T& x = (*items)[a.at];
    const T& y = (*items)[b.at];
    const int c = bytes_of(x).compare(bytes_of(y));
    return c != 0 ? c < 0 : tie(x, y);
  });
  std::vector<T> sorted;
  sorted.reserve(items->size());
  for (const Key& k : keys) sorted.push_back((*items)[k.at]);
  items->swap(sorted);
}

}  // namespace mtok
