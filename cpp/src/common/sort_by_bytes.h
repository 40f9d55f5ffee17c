// Sorting by byte strings held elsewhere (an arena, a file): each item's
// first 16 bytes, big-endian, are compared first, so most comparisons read
// no string (a converter sorting a 200k vocab spent most of it in memcmp
// on tokens all over memory).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace mtok {

// Bytes [from, from + 8) of s (read backwards from its end with `reversed`)
// as a big-endian number, zero past its end.
inline uint64_t BytePrefixKey(std::string_view s, size_t from, bool reversed) {
  uint64_t k = 0;
  for (size_t i = from; i < from + 8; ++i) {
    const unsigned char c = i < s.size() ? static_cast<unsigned char>(s[reversed ? s.size() - 1 - i : i]) : 0;
    k = (k << 8) | c;
  }
  return k;
}

// Sorts `items` by bytes_of(item), read backwards with `reversed`; items of
// equal bytes by tie(a, b).
template <typename T, typename BytesOf, typename Tie>
void SortByBytes(std::vector<T>* items, BytesOf bytes_of, Tie tie, bool reversed = false) {
  struct Key {
    uint64_t hi, lo;
    uint32_t at;
  };
  std::vector<Key> keys(items->size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string_view s = bytes_of((*items)[i]);
    keys[i] = {BytePrefixKey(s, 0, reversed), BytePrefixKey(s, 8, reversed), static_cast<uint32_t>(i)};
  }
  std::sort(keys.begin(), keys.end(), [&](const Key& a, const Key& b) {
    if (a.hi != b.hi) return a.hi < b.hi;
    if (a.lo != b.lo) return a.lo < b.lo;
    const T& x = (*items)[a.at];
    const T& y = (*items)[b.at];
    const std::string_view p = bytes_of(x), q = bytes_of(y);
    if (p == q) return tie(x, y);
    return reversed ? std::lexicographical_compare(p.rbegin(), p.rend(), q.rbegin(), q.rend()) : p < q;
  });
  std::vector<T> sorted;
  sorted.reserve(items->size());
  for (const Key& k : keys) sorted.push_back((*items)[k.at]);
  items->swap(sorted);
}

}  // namespace mtok
