// A small direct-mapped cache from pre-token bytes to ids, one per thread
// and route (the ids fast paths). Natural text repeats its words, so most
// pre-tokens skip the merge loop. Bounded: a slot is overwritten on
// collision, and every slot is cleared when the id arena fills.
//
// Keys are compared as little-endian 8-byte words, zero past the key's end:
// most pre-tokens are at most 16 bytes, two words, so a hit is two loads
// (masked), a multiply-hash and three compares, with no memcmp or memcpy.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "common/huge_pages.h"
#include "common/per_owner.h"

namespace mtok {

namespace piece_key {

inline uint64_t Load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  w = __builtin_bswap64(w);  // byte k of the key is always bits 8k..8k+7
#endif
  return w;
}

// The n (< 8) bytes at p as a word, zero above. Reads 8 bytes when
// [lo, hi), which holds [p, p + n), has them around the key; else byte by byte.
inline uint64_t LoadPartial(const char* p, size_t n, const char* lo, const char* hi) {
  if (n == 0) return 0;
  if (hi - p >= 8) return Load8(p) & (~uint64_t{0} >> (64 - 8 * n));
  if (p + n - lo >= 8) return Load8(p + n - 8) >> (64 - 8 * n);
  uint64_t w = 0;
  for (size_t k = 0; k < n; ++k) w |= uint64_t{static_cast<unsigned char>(p[k])} << (8 * k);
  return w;
}

// kLowBytes[m]: the low m bytes of a word (m <= 8).
inline constexpr uint64_t kLowBytes[9] = {0,
                                          0xFF,
                                          0xFFFF,
                                          0xFFFFFF,
                                          0xFFFFFFFF,
                                          0xFFFFFFFFFF,
                                          0xFFFFFFFFFFFF,
                                          0xFFFFFFFFFFFFFF,
                                          ~uint64_t{0}};

// Word k of a key of n >= 8 bytes (k < ceil(n / 8)): the last, partial word
// is loaded from the key's last 8 bytes and shifted down, so nothing past
// the key is read.
inline uint64_t Word(const char* p, size_t n, size_t k) {
  if (8 * k + 8 <= n) return Load8(p + 8 * k);
  return Load8(p + n - 8) >> (8 * (8 * k + 8 - n));
}

}  // namespace piece_key

class PieceCache {
 public:
  static constexpr size_t kMaxShort = 16;  // two words
  static constexpr size_t kMaxKey = 48;    // six words, in a cache-line slot
  // Longer pre-tokens (CJK runs without spaces, long runs of white space)
  // are cached with their bytes in an arena, up to this size.
  static constexpr size_t kMaxHuge = 4096;

  PieceCache();

  struct ShortSet;
  struct LongSlot;

  // A key of 1..kMaxShort bytes and its hash (the set is the hash's top
  // bits). `readable` holds `piece` and may be read around it.
  struct ShortKey {
    uint64_t w0, w1, hash;
  };
  static bool IsShort(std::string_view piece) { return piece.size() - 1 < kMaxShort; }  // n = 0 wraps
  static ShortKey MakeShort(std::string_view piece, std::string_view readable) {
    const char* p = piece.data();
    const size_t n = piece.size();
    ShortKey k;
    if (readable.data() + readable.size() - p >= 16) {
      // The usual case, without a branch on the length (which is random
      // in text): both words loaded whole, then masked to the key.
      k.w0 = piece_key::Load8(p) & piece_key::kLowBytes[n < 8 ? n : 8];
      k.w1 = piece_key::Load8(p + 8) & piece_key::kLowBytes[n > 8 ? n - 8 : 0];
    } else if (n >= 8) {
      k.w0 = piece_key::Load8(p);
      k.w1 = n > 8 ? piece_key::Load8(p + n - 8) >> (8 * (16 - n)) : 0;
    } else {
      k.w0 = piece_key::LoadPartial(p, n, readable.data(), readable.data() + readable.size());
      k.w1 = 0;
    }
    k.hash = ShortHash(k.w0, k.w1, n);
    return k;
  }
  // Starts loading the set of a short key, so that a batch of lookups
  // waits for memory once rather than once per piece. Always inline: GCC
  // takes a function holding only a prefetch for pure and drops its calls.
  [[gnu::always_inline]] void Prefetch(const ShortKey& k) const {
    const ShortSet* set = SetOf(k);
    __builtin_prefetch(set);
    __builtin_prefetch(reinterpret_cast<const char*>(set) + 64);
  }
  // Appends the cached ids of the n-byte key k and returns true, or
  // returns false; Put then caches its ids.
  bool Append(const ShortKey& k, size_t n, std::vector<uint32_t>* ids) const;
  void Put(const ShortKey& k, size_t n, const uint32_t* ids, size_t count);

  // The same for keys of kMaxShort + 1..kMaxKey bytes.
  bool AppendLong(std::string_view piece, LongSlot** slot, std::vector<uint32_t>* ids);
  void PutLong(LongSlot* slot, std::string_view piece, const uint32_t* ids, size_t count);

  // The same for keys of kMaxKey + 1..kMaxHuge bytes.
  struct HugeSlot;
  bool AppendHuge(std::string_view piece, HugeSlot** slot, std::vector<uint32_t>* ids) const;
  void PutHuge(HugeSlot* slot, std::string_view piece, const uint32_t* ids, size_t count);

  // This thread's cache for `owner` (a NewOwnerSerial() of the route).
  static PieceCache& ForThread(uint64_t owner) { return ForOwner<PieceCache>(owner); }
  // Has the kernel back the tables now (see HugePageRegion::Populate).
  void Populate();

  // Sizes (log2 of the slot counts), for tests that fill the cache past
  // them. The short table has its full size from the start: a warm
  // document of a few thousand distinct words re-merged the words that
  // overflowed a half-size table's sets (4096-token documents, 14% slower).
  // The long and huge tables start small, sharing one 2 MB page, and grow
  // to these sizes once kGrowAfter pre-tokens were cached: a fresh cache
  // costs the kernel two pages to clear instead of three (the loading
  // thread's at load, see IdsRoute::PrepareThread; another thread's when
  // it first uses them). The thread pool's workers start at these sizes.
  static constexpr size_t kShortBits = 16, kLongBits = 15, kHugeBits = 14;
  static constexpr size_t kSmallLongBits = 13, kSmallHugeBits = 12;
  static constexpr size_t kGrowAfter = size_t{1} << 14;
  static constexpr size_t kWayBits = 2;
  static constexpr size_t kHugeBytes = size_t{1} << 22;
  static constexpr size_t kArenaIds = 1 << 19;

  // Half a cache line: the key words and a single id live in the slot, so
  // a hit reads nothing else. An empty slot has key_len 0.
  struct alignas(32) ShortSlot {
    uint64_t w0, w1;
    uint32_t first_id;
    uint32_t ids_off;  // into the arena when ids_len > 1
    uint16_t ids_len;
    uint8_t key_len;
  };
  // Four ways in two cache lines: pre-tokens that hash alike all stay (a
  // direct-mapped cache re-merged about one in ten of a text's words, two
  // ways about one in a hundred of a long document's). A new key goes
  // first and pushes the older ones down.
  struct alignas(128) ShortSet {
    ShortSlot way[size_t{1} << kWayBits];
  };
  struct alignas(64) LongSlot {
    uint64_t w[kMaxKey / 8];
    uint32_t first_id;
    uint32_t ids_off;
    uint16_t ids_len;
    uint8_t key_len;
  };
  // The key's bytes are in the byte arena; empty when key_len is 0.
  struct HugeSlot {
    uint64_t hash;
    uint32_t key_off, key_len;
    uint32_t first_id, ids_off;
    uint16_t ids_len;
  };

 private:
  // The high bits of a product depend on every bit of the word.
  static uint64_t ShortHash(uint64_t w0, uint64_t w1, size_t n) {
    return w0 * 0x9E3779B97F4A7C15ULL ^ (w1 + n) * 0xC2B2AE3D27D4EB4FULL;
  }
  static constexpr size_t kShortSets = size_t{1} << (kShortBits - kWayBits);
  ShortSet* SetOf(const ShortKey& k) const { return &short_[k.hash >> (64 - kShortBits + kWayBits)]; }
  // Points the long and huge tables at a new zeroed region of the given
  // sizes (log2 of the slot counts); false, with nothing changed, when
  // there is no memory.
  bool AllocateLong(size_t long_bits, size_t huge_bits);
  // Moves every cached long and huge pre-token into tables of the full sizes.
  void Grow();
  // Counts a cached pre-token; the tables grow at the kGrowAfter-th.
  void Counted() {
    if (++cached_ == kGrowAfter) Grow();
  }
  // Appends the ids a filled slot holds.
  template <typename Slot>
  void Emit(const Slot& s, std::vector<uint32_t>* ids) const {
    if (s.ids_len == 1) ids->push_back(s.first_id);  // most pre-tokens: one id, in the slot
    else ids->insert(ids->end(), arena_.data() + s.ids_off, arena_.data() + s.ids_off + s.ids_len);
  }
  // Stores ids in a slot; false when they cannot be cached.
  template <typename Slot>
  bool Store(Slot* s, size_t key_len, const uint32_t* ids, size_t count);
  void Clear();
  void ClearHuge();

  // The tables live in zero-filled mappings on 2 MB pages where the kernel
  // allows (one TLB entry for a lookup that lands anywhere): the short
  // table in one, the long and huge tables in the other.
  HugePageRegion short_mem_;
  std::unique_ptr<HugePageRegion> long_mem_;  // replaced when the tables grow
  ShortSet* short_ = nullptr;  // kShortSets
  LongSlot* long_ = nullptr;   // long_slots_
  HugeSlot* huge_ = nullptr;   // huge_slots_
  size_t long_slots_ = 0, huge_slots_ = 0;
  uint64_t long_shift_ = 0, huge_shift_ = 0;  // hash >> shift: the slot
  size_t cached_ = 0;  // pre-tokens cached so far (counted up to kGrowAfter)
  std::vector<char> huge_bytes_;  // keys of the huge slots
  std::vector<uint32_t> arena_;  // id lists longer than one
};

static_assert(sizeof(PieceCache::ShortSet) == 128, "four short slots in two cache lines");
static_assert(sizeof(PieceCache::LongSlot) == 64, "a long slot is one cache line");

inline bool PieceCache::Append(const ShortKey& k, size_t n, std::vector<uint32_t>* ids) const {
  for (const ShortSlot& s : SetOf(k)->way) {
    if (s.w0 == k.w0 && s.w1 == k.w1 && s.key_len == n) {
      Emit(s, ids);
      return true;
    }
  }
  return false;
}

template <typename Slot>
bool PieceCache::Store(Slot* s, size_t key_len, const uint32_t* ids, size_t count) {
  if (count == 0 || count > UINT16_MAX) return false;
  if (count > 1 && arena_.size() + count > kArenaIds) {
    Clear();  // every slot at once: arena offsets are gone
    if (count > kArenaIds) return false;
  }
  s->key_len = static_cast<decltype(s->key_len)>(key_len);
  s->first_id = ids[0];
  s->ids_len = static_cast<uint16_t>(count);
  if (count > 1) {
    s->ids_off = static_cast<uint32_t>(arena_.size());
    arena_.insert(arena_.end(), ids, ids + count);
  }
  return true;
}

inline void PieceCache::Put(const ShortKey& k, size_t n, const uint32_t* ids, size_t count) {
  ShortSlot* s = &SetOf(k)->way[0];
  std::memmove(s + 1, s, sizeof(ShortSet) - sizeof(ShortSlot));
  s->key_len = 0;  // empty until filled
  if (!Store(s, n, ids, count)) return;
  s->w0 = k.w0;
  s->w1 = k.w1;
  Counted();
}

// Encodes a piece the cache did not hold and caches its ids.
template <typename Key, typename Encode>
[[gnu::noinline]] void EncodeAndCache(PieceCache& cache, const Key& k, std::string_view piece,
                                      std::vector<uint32_t>* ids, Encode& encode) {
  const size_t before = ids->size();
  encode(piece, ids);
  if constexpr (std::is_same_v<Key, PieceCache::ShortKey>) {
    cache.Put(k, piece.size(), ids->data() + before, ids->size() - before);
  } else if constexpr (std::is_same_v<Key, PieceCache::LongSlot*>) {
    cache.PutLong(k, piece, ids->data() + before, ids->size() - before);
  } else {
    cache.PutHuge(k, piece, ids->data() + before, ids->size() - before);
  }
}

// Appends the ids of a short piece and its key k, from the cache or from
// encode(piece, ids) (then cached). Inlined into the callers' loops: a hit
// is a few instructions.
template <typename Encode>
[[gnu::always_inline]] inline void CachedShortIds(PieceCache& cache, const PieceCache::ShortKey& k,
                                                  std::string_view piece, std::vector<uint32_t>* ids,
                                                  Encode& encode) {
  if (!cache.Append(k, piece.size(), ids)) EncodeAndCache(cache, k, piece, ids, encode);
}

// The same for a piece of any length. `readable` holds `piece`: short keys
// may be loaded with reads anywhere inside it.
template <typename Encode>
[[gnu::always_inline]] inline void CachedIds(PieceCache& cache, std::string_view piece, std::string_view readable,
                                             std::vector<uint32_t>* ids, Encode encode) {
  const size_t n = piece.size();
  if (PieceCache::IsShort(piece)) {
    CachedShortIds(cache, PieceCache::MakeShort(piece, readable), piece, ids, encode);
    return;
  }
  if (n == 0 || n > PieceCache::kMaxHuge) {
    encode(piece, ids);
    return;
  }
  if (n > PieceCache::kMaxKey) {
    PieceCache::HugeSlot* slot;
    if (!cache.AppendHuge(piece, &slot, ids)) EncodeAndCache(cache, slot, piece, ids, encode);
    return;
  }
  PieceCache::LongSlot* slot;
  if (!cache.AppendLong(piece, &slot, ids)) EncodeAndCache(cache, slot, piece, ids, encode);
}

template <typename Encode>
inline void CachedIds(PieceCache& cache, std::string_view piece, std::vector<uint32_t>* ids, Encode encode) {
  CachedIds(cache, piece, piece, ids, encode);
}

}  // namespace mtok
