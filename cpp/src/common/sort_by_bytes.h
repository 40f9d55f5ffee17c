// Sorting by byte strings held elsewhere (an arena, a file): a radix sort
// of each item's first 16 bytes (big-endian), then only items that agree on
// those compare their strings (a converter sorting a 200k vocab with
// std::sort spent most of it in memcmp on tokens all over memory).
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

namespace sort_detail {

struct Key {
  uint64_t hi, lo;
  uint32_t at;
};

// Stable LSD radix sort of keys by (hi, lo), 16 bits a pass; a pass whose
// digit is the same for every key (the low words of short strings) is
// skipped. std::sort took ~500 instructions a key on a 200k vocab.
inline void RadixSort(std::vector<Key>* keys) {
  std::vector<Key> tmp(keys->size());
  std::vector<uint32_t> count(size_t{1} << 16);
  for (int pass = 0; pass < 8; ++pass) {
    const bool high = pass >= 4;
    const int shift = 16 * (pass & 3);
    auto digit = [&](const Key& k) { return static_cast<uint32_t>(((high ? k.hi : k.lo) >> shift) & 0xFFFF); };
    std::fill(count.begin(), count.end(), 0);
    for (const Key& k : *keys) ++count[digit(k)];
    if (!keys->empty() && count[digit((*keys)[0])] == keys->size()) continue;
    uint32_t sum = 0;
    for (uint32_t& c : count) {
      const uint32_t n = c;
      c = sum;
      sum += n;
    }
    for (const Key& k : *keys) tmp[count[digit(k)]++] = k;
    keys->swap(tmp);
  }
}

}  // namespace sort_detail

// Sorts `items` by bytes_of(item), read backwards with `reversed`; items of
// equal bytes by tie(a, b).
template <typename T, typename BytesOf, typename Tie>
void SortByBytes(std::vector<T>* items, BytesOf bytes_of, Tie tie, bool reversed = false) {
  using sort_detail::Key;
  std::vector<Key> keys(items->size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string_view s = bytes_of((*items)[i]);
    keys[i] = {BytePrefixKey(s, 0, reversed), BytePrefixKey(s, 8, reversed), static_cast<uint32_t>(i)};
  }
  sort_detail::RadixSort(&keys);
  // Runs of keys that agree on their first 16 bytes: by all their bytes.
  auto less = [&](const Key& a, const Key& b) {
    const T& x = (*items)[a.at];
    const T& y = (*items)[b.at];
    const std::string_view p = bytes_of(x), q = bytes_of(y);
    if (p == q) return tie(x, y);
    return reversed ? std::lexicographical_compare(p.rbegin(), p.rend(), q.rbegin(), q.rend()) : p < q;
  };
  for (size_t i = 0; i < keys.size();) {
    size_t j = i + 1;
    while (j < keys.size() && keys[j].hi == keys[i].hi && keys[j].lo == keys[i].lo) ++j;
    if (j - i > 1) std::sort(keys.begin() + i, keys.begin() + j, less);
    i = j;
  }
  std::vector<T> sorted;
  sorted.reserve(items->size());
  for (const Key& k : keys) sorted.push_back((*items)[k.at]);
  items->swap(sorted);
}

}  // namespace mtok
