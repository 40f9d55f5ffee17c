// Tokens of up to 8 raw bytes, each slot holding the token's bytes: a
// whole pre-token of that size is found (or found absent) with one read of
// one slot, where the raw index reads a tag, a slot, the token's offsets
// and its bytes, one after the other: four cache misses for a first-seen
// short word that is a token. (Longer pre-tokens are mostly no token, which
// the raw index's tag answers at its first read.)
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

#include "mtok/memory.h"

namespace mtok {

struct RawTables;

class ShortTokens {
 public:
  static constexpr size_t kMaxBytes = 8;

  // Holds the tokens of `raw` of 1..kMaxBytes bytes; a byte string that
  // several ids share keeps its lowest id (as RawTables::Find). False,
  // with nothing held, when there is no memory. Once only.
  bool Build(const RawTables& raw);
  size_t count() const { return count_; }

  // The id of the token whose bytes are `key` (1..kMaxBytes bytes).
  bool Find(std::string_view key, uint32_t* id) const {
    const uint64_t w = Load(key.data(), key.size());
    const auto n = static_cast<uint32_t>(key.size());
    for (size_t i = Hash(w, n) >> shift_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.len == 0) return false;
      if (s.key == w && s.len == n) {
        *id = s.id;
        return true;
      }
    }
  }

  size_t bytes() const { return (mask_ + 1) * sizeof(Slot); }

 private:
  struct Slot {
    uint64_t key;  // the bytes, little-endian, zero past the token
    uint32_t id;
    uint32_t len;  // 0: empty
  };
  static_assert(sizeof(Slot) == 16, "four slots a cache line");

  // The n (1..8) bytes at p as a word, reading none past them.
  static uint64_t Load(const char* p, size_t n) {
    if (n >= 4) {
      uint32_t lo, hi;
      std::memcpy(&lo, p, 4);
      std::memcpy(&hi, p + n - 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      lo = __builtin_bswap32(lo);  // byte k of the key is always bits 8k..8k+7
      hi = __builtin_bswap32(hi);
#endif
      return uint64_t{lo} | uint64_t{hi} << (8 * (n - 4));
    }
    const auto b = [p](size_t k) { return uint64_t{static_cast<unsigned char>(p[k])}; };
    return b(0) | b(n / 2) << (8 * (n / 2)) | b(n - 1) << (8 * (n - 1));
  }
  static uint64_t Hash(uint64_t w, uint32_t n) { return (w ^ uint64_t{n} << 59) * 0x9E3779B97F4A7C15ULL; }

  HugePageRegion mem_;
  const Slot* slots_ = nullptr;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  size_t count_ = 0;
};

}  // namespace mtok
