// Tokens of up to 8 raw bytes, each slot holding the token's bytes: a
// whole pre-token of that size is found (or found absent) with one read of
// one slot, where the raw index reads a tag, a slot, the token's offsets
// and its bytes, one after the other: four cache misses for a first-seen
// short word that is a token. (Longer pre-tokens are mostly no token, which
// the raw index's tag answers at its first read.) Written at export
// (section BSHT) and adopted in place at load; else built at the first
// encode.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "mtok/memory.h"
#include "mtok/status.h"

namespace mtok {

struct RawTables;

class ShortTokens {
 public:
  static constexpr size_t kMaxBytes = 8;

  // Holds the tokens of `raw` of 1..kMaxBytes bytes; a byte string that
  // several ids share keeps its lowest id (as RawTables::Find). False,
  // with nothing held, when there is no memory. Once only.
  bool Build(const RawTables& raw);
  bool empty() const { return slots_ == nullptr; }
  size_t count() const { return count_; }

  // The id of the token whose bytes are `key` (1..kMaxBytes bytes). At
  // most max_probe_ + 1 slots are read, and no id at or past id_limit_ is
  // given: a damaged section changes results, never memory safety.
  bool Find(std::string_view key, uint32_t* id) const {
    const uint64_t w = Load(key.data(), key.size());
    const auto n = static_cast<uint32_t>(key.size());
    size_t i = Hash(w, n) >> shift_;
    for (uint32_t k = 0; k <= max_probe_; ++k, i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.len == 0) return false;
      if (s.key == w && s.len == n) {
        *id = s.id;
        return s.id < id_limit_;
      }
    }
    return false;
  }

  // Starts loading the first slot Find reads for the key whose bytes, as
  // Find loads them, are `w` (n of them, 1..kMaxBytes).
  [[gnu::always_inline]] void Prefetch(uint64_t w, size_t n) const {
    __builtin_prefetch(&slots_[Hash(w, static_cast<uint32_t>(n)) >> shift_]);
  }

  size_t bytes() const { return (mask_ + 1) * sizeof(Slot); }

  // BSHT payload: [u32 bits][u32 max_probe][u32 count][u32 0], then 2^bits
  // slots of 16 bytes: u64 key (the token's bytes, little-endian, zero
  // past them), u32 id, u32 length (0: empty). A key of n bytes is looked
  // for from slot Hash >> (64 - bits) on, at most max_probe + 1 slots.
  std::string Payload() const;
  // Checks the header and size and adopts the slots in place (`payload`
  // must outlive the table and be 8-byte aligned; `out` must be a table
  // not built); ids are checked against `id_limit` when found, the rest is
  // trusted as the pair ranks are.
  static Status Parse(std::string_view payload, uint32_t id_limit, ShortTokens* out);

 private:
  struct Slot {
    uint64_t key;  // the bytes, little-endian, zero past the token
    uint32_t id;
    uint32_t len;  // 0: empty
  };
  static_assert(sizeof(Slot) == 16, "four slots a cache line");
  static constexpr size_t kHeader = 16;
  static constexpr unsigned kMinBits = 4, kMaxBits = 28;
  // Points the table at 2^bits slots.
  void Point(const Slot* slots, unsigned bits);

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

  HugePageRegion mem_;  // a built table's slots
  const Slot* slots_ = nullptr;
  size_t mask_ = 0;
  unsigned shift_ = 64;
  uint32_t max_probe_ = 0;  // the longest run of slots a key was placed after its first
  uint32_t id_limit_ = 0xFFFFFFFFu;
  size_t count_ = 0;
};

}  // namespace mtok
