// Sorting by byte strings held elsewhere (an arena, a file): a radix sort
// of each item's first 12 bytes (big-endian), then only items that agree on
// those compare their strings (a converter sorting a 200k vocab with
// std::sort spent most of it in memcmp on tokens all over memory).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace mtok {

// Bytes [from, from + 8) of s (read backwards from its end with `reversed`)
// as a big-endian number, zero past its end. (One load and a byte swap
// or shift: a loop per byte made the keys half of a sort's instructions.)
inline uint64_t BytePrefixKey(std::string_view s, size_t from, bool reversed) {
  if (from >= s.size()) return 0;
  const size_t m = std::min<size_t>(8, s.size() - from);
  uint64_t v = 0;
  if (!reversed) {
    std::memcpy(&v, s.data() + from, m);  // little-endian hosts: the first byte lowest
    return __builtin_bswap64(v);
  }
  // The m bytes that end `from` bytes before the end: the last one highest.
  std::memcpy(&v, s.data() + (s.size() - from - m), m);
  return m == 8 ? v : v << (8 * (8 - m));
}

namespace sort_detail {

// 16 bytes: bytes 0-7 in hi, 8-11 in lo, and the item's index. (With 16
// prefix bytes the key took 24, and a converter's fresh memory costs more
// here than the few more string compares.)
struct Key {
  uint64_t hi;
  uint32_t lo, at;
};
constexpr int kKeyBytes = 12;

inline unsigned KeyByte(const Key& k, int d) {
  return static_cast<unsigned>((d < 8 ? k.hi >> (56 - 8 * d) : k.lo >> (24 - 8 * (d - 8))) & 0xFF);
}

// MSD radix sort of the n keys at `in` that agree on their first d bytes,
// the result left at `out` (`in` or the other buffer, of the same span):
// bucketed by byte d into the other buffer, each bucket sorted on from
// byte d + 1 with the buffers' roles swapped; small buckets, and keys equal
// in all kKeyBytes bytes, by `less` (std::sort on the whole took ~500 instructions
// a key on a 200k vocab).
template <typename Less>
void RadixSort(Key* in, Key* other, Key* out, size_t n, int d, const Less& less) {
  if (n < 32 || d == kKeyBytes) {
    std::sort(in, in + n, less);
    if (out != in) std::copy(in, in + n, out);
    return;
  }
  size_t start[257] = {};
  for (size_t i = 0; i < n; ++i) ++start[KeyByte(in[i], d) + 1];
  // All keys share byte d (pieces that start with the same word mark's
  // three bytes): nothing to move, go on to byte d + 1 in place.
  if (start[KeyByte(in[0], d) + 1] == n) return RadixSort(in, other, out, n, d + 1, less);
  for (int b = 0; b < 256; ++b) start[b + 1] += start[b];
  size_t at[256];
  std::copy(start, start + 256, at);
  for (size_t i = 0; i < n; ++i) other[at[KeyByte(in[i], d)]++] = in[i];
  for (int b = 0; b < 256; ++b) {
    const size_t s = start[b], m = start[b + 1] - s;
    if (m > 0) RadixSort(other + s, in + s, out + s, m, d + 1, less);
  }
}

}  // namespace sort_detail

// The order of items 0..n-1 by bytes_of(i), read backwards with
// `reversed`; items of equal bytes by tie(i, j). Indices only: a caller
// that reads the items in this order need not copy them.
template <typename BytesOf, typename Tie>
std::vector<uint32_t> OrderByBytes(size_t n, BytesOf bytes_of, Tie tie, bool reversed = false) {
  using sort_detail::Key;
  std::vector<Key> keys(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string_view s = bytes_of(i);
    keys[i] = {BytePrefixKey(s, 0, reversed), static_cast<uint32_t>(BytePrefixKey(s, 8, reversed) >> 32),
               static_cast<uint32_t>(i)};
  }
  // By the keys, then (keys equal) by all the bytes, then by tie.
  auto less = [&](const Key& a, const Key& b) {
    if (a.hi != b.hi) return a.hi < b.hi;
    if (a.lo != b.lo) return a.lo < b.lo;
    const std::string_view p = bytes_of(a.at), q = bytes_of(b.at);
    if (p == q) return tie(a.at, b.at);
    return reversed ? std::lexicographical_compare(p.rbegin(), p.rend(), q.rbegin(), q.rend()) : p < q;
  };
  {
    std::vector<Key> tmp(n);
    sort_detail::RadixSort(keys.data(), tmp.data(), keys.data(), n, 0, less);
  }
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = keys[i].at;
  return order;
}

// Sorts `items` by bytes_of(item), read backwards with `reversed`; items of
// equal bytes by tie(a, b).
template <typename T, typename BytesOf, typename Tie>
void SortByBytes(std::vector<T>* items, BytesOf bytes_of, Tie tie, bool reversed = false) {
  const std::vector<T>& v = *items;
  const std::vector<uint32_t> order = OrderByBytes(
      v.size(), [&](size_t i) { return bytes_of(v[i]); }, [&](uint32_t a, uint32_t b) { return tie(v[a], v[b]); },
      reversed);
  std::vector<T> sorted;
  sorted.reserve(v.size());
  for (uint32_t i : order) sorted.push_back(v[i]);
  items->swap(sorted);
}

}  // namespace mtok
