// A bounded cache from pre-token bytes to ids, one per thread and route
// (the ids fast paths). Natural text repeats its words, so most pre-tokens
// skip the model. Bounded (MTOK_CACHE_MB): set-associative tables whose
// slots are overwritten on collision, grown up to the bound, and rings of
// ids and key bytes that wrap, leaving the slots that point into what they
// overwrote stale.
//
// Keys are compared as little-endian 8-byte words, zero past the key's end:
// most pre-tokens are at most 16 bytes, two words, so a hit is two loads
// (masked), a multiply-hash and three compares, with no memcmp or memcpy.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <type_traits>
#include <vector>

#include "common/flat_hash.h"
#include "common/huge_pages.h"
#include "common/load_le.h"
#include "common/per_owner.h"

namespace mtok {

namespace piece_key {

// The n (< 8) bytes at p as a word, zero above. Reads 8 bytes when
// [lo, hi), which holds [p, p + n), has them around the key; else byte by byte.
inline uint64_t LoadPartial(const char* p, size_t n, const char* lo, const char* hi) {
  if (n == 0) return 0;
  if (hi - p >= 8) return LoadLe64(p) & (~uint64_t{0} >> (64 - 8 * n));
  if (p + n - lo >= 8) return LoadLe64(p + n - 8) >> (64 - 8 * n);
  return LoadLeBytes(p, n);
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
  if (8 * k + 8 <= n) return LoadLe64(p + 8 * k);
  return LoadLe64(p + n - 8) >> (8 * (8 * k + 8 - n));
}

}  // namespace piece_key

// Appends n ids. A short list (most pre-tokens of more than one id) is
// copied here when it fits: vector::insert's general path and its call to
// memmove took several times the instructions.
inline void AppendIds(std::vector<uint32_t>* ids, const uint32_t* from, size_t n) {
  if (n <= 8 && ids->capacity() - ids->size() >= n) {
    for (size_t k = 0; k < n; ++k) ids->push_back(from[k]);
    return;
  }
  ids->insert(ids->end(), from, from + n);
}

// The cache's memory (tables and rings) is on 4 KB pages: it is backed
// while text is encoded, a growth at a time, and a VM's host may back a
// fresh 2 MB page ten times more slowly than 4 KB ones, stalling the
// encode that grows the cache (bench/README, ninth session). Warm lookups
// give back a little to TLB misses.
inline constexpr bool kPieceCacheHugePages = false;

// Memory of the ids kept for long keys and multi-id pre-tokens: a ring of
// 2^k elements written at an ever-growing logical position. A slot keeps
// the logical position of what it stored; once the ring has wrapped past
// it the slot is stale (a miss), so a full ring never clears the cache.
template <typename T>
class PieceRing {
 public:
  // Room for `capacity` (a power of two, or 0) elements, the old contents
  // dropped; false, with no room, when there is no memory.
  bool Allocate(size_t capacity);
  // Stores n elements contiguously; their logical position, or kNone.
  static constexpr uint64_t kNone = ~uint64_t{0};
  uint64_t Put(const T* src, size_t n);
  // The elements stored at `pos` are still there.
  bool Live(uint64_t pos) const { return head_ - pos <= capacity_; }
  const T* At(uint64_t pos) const { return data_ + (pos & (capacity_ - 1)); }
  size_t capacity() const { return capacity_; }
  size_t used() const { return head_ < capacity_ ? head_ : capacity_; }

 private:
  std::unique_ptr<HugePageRegion> mem_;  // pages backed as they are first written
  T* data_ = nullptr;
  size_t capacity_ = 0;  // a power of two, or 0
  uint64_t head_ = 0;
};

class PieceCache {
 public:
  static constexpr size_t kMaxShort = 16;  // two words
  static constexpr size_t kMaxKey = 48;    // six words, in a cache-line slot
  // Longer pre-tokens (CJK runs without spaces, long runs of white space)
  // are cached with their bytes in a ring, up to this size.
  static constexpr size_t kMaxHuge = 4096;

  // The bound on one cache's memory, in bytes: MTOK_CACHE_MB (whole MB)
  // or SetBound, else kDefaultBound. 0 turns caching off.
  static constexpr size_t kDefaultBound = size_t{64} << 20;
  static size_t Bound();
  static void SetBound(size_t bytes);

  explicit PieceCache(size_t bound = Bound()) { Reset(bound); }
  // Empties the cache and sizes it for `bound`.
  void Reset(size_t bound);

  struct ShortSet;
  struct LongSlot;

  // A key of 1..kMaxShort bytes, its length as stored (the bytes' count,
  // plus kPartTag for a part) and its hash (the set is the hash's top
  // bits). `readable` holds `piece` and may be read around it.
  struct ShortKey {
    uint64_t w0, w1, hash;
    size_t len;
  };
  // Added to the length of a part's key (ByteBpe::NextCut): a part is
  // merged without the model's whole-pre-token rule (ignore_merges), so
  // its ids are kept apart from a pre-token's of the same bytes.
  static constexpr size_t kPartTag = 32;
  static bool IsShort(std::string_view piece) { return piece.size() - 1 < kMaxShort; }  // n = 0 wraps
  // MakeShort when 16 bytes from the piece's start may be read (a caller
  // that knows it for a whole batch skips the test). Without a branch on
  // the length (which is random in text): both words loaded whole, then
  // masked to the key.
  static ShortKey MakeShortWide(std::string_view piece, size_t tag = 0) {
    const char* p = piece.data();
    const size_t n = piece.size();
    ShortKey k;
    k.w0 = LoadLe64(p) & piece_key::kLowBytes[n < 8 ? n : 8];
    k.w1 = LoadLe64(p + 8) & piece_key::kLowBytes[n > 8 ? n - 8 : 0];
    k.len = n + tag;
    k.hash = ShortHash(k.w0, k.w1, k.len);
    return k;
  }
  static ShortKey MakeShort(std::string_view piece, std::string_view readable, size_t tag = 0) {
    const char* p = piece.data();
    const size_t n = piece.size();
    if (readable.data() + readable.size() - p >= 16) return MakeShortWide(piece, tag);  // the usual case
    ShortKey k;
    if (n >= 8) {
      k.w0 = LoadLe64(p);
      k.w1 = n > 8 ? LoadLe64(p + n - 8) >> (8 * (16 - n)) : 0;
    } else {
      k.w0 = piece_key::LoadPartial(p, n, readable.data(), readable.data() + readable.size());
      k.w1 = 0;
    }
    k.len = n + tag;
    k.hash = ShortHash(k.w0, k.w1, k.len);
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
  // Appends the cached ids of key k and returns true, or returns false;
  // Put then caches its ids.
  [[gnu::always_inline]] bool Append(const ShortKey& k, std::vector<uint32_t>* ids);
  void Put(const ShortKey& k, const uint32_t* ids, size_t count);
  // Append for a loop that gathers ids in a buffer of its own: when the
  // slot holds the key's ids (at most kInlineIds), writes kInlineIds words
  // at `out` (those past the ids are left over from other keys) and
  // returns how many are the key's; else 0 (not cached, or its ids are in
  // the ring: Append then). Copying the slot's words whole, with no
  // branch on their count, saved the mispredicted branches of pre-tokens
  // of one, two and three ids taking turns.
  [[gnu::always_inline]] size_t Stage(const ShortKey& k, uint32_t* out);

  // The same for keys of kMaxShort + 1..kMaxKey bytes (`ways`: the first
  // of the four slots the key may be in).
  bool AppendLong(std::string_view piece, LongSlot** ways, std::vector<uint32_t>* ids);
  void PutLong(LongSlot* ways, std::string_view piece, const uint32_t* ids, size_t count);

  // The same for keys of kMaxKey + 1..kMaxHuge bytes.
  struct HugeSlot;
  bool AppendHuge(std::string_view piece, HugeSlot** ways, std::vector<uint32_t>* ids);
  void PutHuge(HugeSlot* ways, std::string_view piece, const uint32_t* ids, size_t count);

  // Counts the moves of the tables (Grow): ways found before a move are
  // stale after it. Encoding a piece may cache its parts and so move them.
  uint64_t moves() const { return moves_; }
  // The ways a long or huge key may be in (what AppendLong and AppendHuge give).
  LongSlot* LongWays(std::string_view piece) const;
  HugeSlot* HugeWays(std::string_view piece) const;
  // Starts loading a longer key's set, as Prefetch does for a short key
  // (a piece of kMaxShort + 1..kMaxHuge bytes). All four lines of a long
  // set: a key not cached (a first-seen CJK clause) reads every way.
  [[gnu::always_inline]] void PrefetchLonger(std::string_view piece) const {
    if (piece.size() <= kMaxKey) {
      const LongSlot* ways = LongWays(piece);
      for (size_t w = 0; w < size_t{1} << kWayBits; ++w) __builtin_prefetch(ways + w);
    } else {
      __builtin_prefetch(HugeWays(piece));  // four ways in two lines
    }
  }

  bool enabled() const { return bound_ != 0; }

  // While alive, the calling thread encodes one part of a split encode
  // (split_encode.h): the caches it takes (ForThread) grow as GrowthPays
  // says.
  class SplitPart {
   public:
    SplitPart() : was_(in_split_part_) { in_split_part_ = true; }
    ~SplitPart() { in_split_part_ = was_; }
    SplitPart(const SplitPart&) = delete;
    SplitPart& operator=(const SplitPart&) = delete;

   private:
    bool was_;
  };
  void CountMiss() { ++misses_; }
  uint64_t misses() const { return misses_; }

  // This thread's cache for `owner` (a NewOwnerSerial() of the route),
  // made again when the bound has changed since it was made.
  static PieceCache& ForThread(uint64_t owner);

  // What debug_info() reports.
  struct Stats {
    size_t bound, bytes;  // the bound; the memory of the tables and rings now
    uint64_t hits, misses;
  };
  Stats GetStats() const;
  // The stats as debug_info() facts: piece_cache (a sentence) and
  // piece_cache_{bound,bytes,hits,misses} (numbers).
  void Describe(std::vector<std::pair<std::string, std::string>>* out) const;

  // Sizes. The tables start at these sizes (log2 of the slot counts, at
  // most the bound's share) and each grows fourfold, keeping every entry,
  // each time a quarter as many pre-tokens were cached in it as it has
  // slots (kGrowthShare), until it reaches the bound's share (shares:
  // short table 3/8, long table 1/8, huge table 1/16, huge-key bytes 1/8,
  // id ring 1/4; 15/16 in all). A fresh cache's tables are backed when it
  // is made (2.7 MB); one that sees many distinct pre-tokens grows to its
  // bound.
  static constexpr size_t kShortBits = 16, kLongBits = 13, kHugeBits = 12;
  static constexpr size_t kWayBits = 2;
  // A table grows once it cached 1/kGrowthShare as many pre-tokens as it
  // has slots since it last grew, so it is at most about a third full.
  // Fuller four-way sets give up keys that come back: grown at half, the
  // short table of a pass over the mixed corpus text was 47% full and
  // re-merged 3,000 pre-tokens on every later pass (bench/README.md,
  // twenty-third session).
  static constexpr size_t kGrowthShare = 4;

  // A cached key's ids: up to kInlineIds of them in the slot itself (a
  // pre-token of two or three ids, one in six of a multilingual text's,
  // then costs no second random read), else their position in the id ring.
  static constexpr size_t kInlineIds = 3;
  struct SlotIds {
    uint32_t word[kInlineIds];  // the ids, or the ring position's low and high words
    uint64_t RingPos() const { return word[0] | uint64_t{word[1]} << 32; }
  };
  // Half a cache line: the key words and up to three ids live in the
  // slot, so a hit reads nothing else. An empty slot has key_len 0.
  struct alignas(32) ShortSlot {
    uint64_t w0, w1;
    SlotIds ids;
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
    SlotIds ids;
    uint16_t ids_len;
    uint8_t key_len;
  };
  // The key's bytes are in the byte ring; empty when key_len is 0.
  struct HugeSlot {
    uint64_t hash;
    uint64_t key_off;
    uint32_t key_len;
    SlotIds ids;
    uint16_t ids_len;
  };

 private:
  // The high bits of a product depend on every bit of the word.
  static uint64_t ShortHash(uint64_t w0, uint64_t w1, size_t n) {
    return w0 * 0x9E3779B97F4A7C15ULL ^ (w1 + n) * 0xC2B2AE3D27D4EB4FULL;
  }
  ShortSet* SetOf(const ShortKey& k) const { return &short_[k.hash >> short_shift_]; }
  // The slot that holds short key k, moved to its set's front (FrontWay), or null.
  [[gnu::always_inline]] const ShortSlot* Find(const ShortKey& k);
  // The three tables, in this order wherever they are indexed.
  enum Table : size_t { kShortTable, kLongTable, kHugeTable, kTables };
  // Log2 of each table's slot count.
  using TableBits = std::array<size_t, kTables>;
  static size_t TableBytes(const TableBits& bits);
  TableBits Bits() const;
  // Points the tables at `short_sets`, `longs` and `huges`, of `bits` sizes.
  void PointTables(const TableBits& bits, uint8_t* short_sets, uint8_t* longs, uint8_t* huges);
  uint8_t* TableData(Table t) const;
  // Reserves the spans (address space only) unless they are, lowering the
  // maxima when the kernel grants less than the bound's shares; false when
  // it grants none past the tables' next size.
  bool ReserveSpans();
  // Each table's bytes at `bits` sizes.
  using SpanBytes = std::array<size_t, kTables>;
  static SpanBytes BytesOf(const TableBits& bits);
  // Makes table t four times larger (up to the bound's share), keeping
  // every pre-token it holds. Each table grows on its own: text that fills
  // the long table (CJK, Cyrillic) does not make the short one back and
  // rehash megabytes it does not need yet. The new memory is backed here,
  // on the encoding thread: backed ahead on another thread it was no
  // sooner ready, and the backing slowed this thread more than doing it
  // itself (bench/README.md, sixteenth session).
  void Grow(Table t);
  // Counts a pre-token cached in table t; the table grows as kGrowthShare says.
  void Counted(Table t) {
    if (++cached_[t] >= Slots(t) / kGrowthShare && CanGrow(t) && GrowthPays()) Grow(t);
  }
  size_t Slots(Table t) const {
    static_assert(kTables == 3, "one slot count per table");
    const size_t slots[kTables] = {short_slots_, long_slots_, huge_slots_};
    return slots[t];
  }
  // Table t is below its largest size (max_bits_).
  bool CanGrow(Table t) const { return Slots(t) < size_t{1} << max_bits_[t]; }
  bool AnyCanGrow() const { return CanGrow(kShortTable) || CanGrow(kLongTable) || CanGrow(kHugeTable); }
  // In a split encode every CPU encodes, so a growth (backing up to tens
  // of MB, then a rehash) holds up its thread with no other to take up
  // the work, and each thread's cache grows for the same text: there the
  // tables grow only once the cache gives up keys that come back, one
  // pre-token cached in kRemissShare since the last growth. (Splits of
  // three 1 MB documents of new mixed text give one in 160 down to one in
  // 40, and keep the tables they start with; documents encoded again after
  // more than the caches hold, about one in 15.)
  bool GrowthPays() const { return !split_part_ || remisses_ * kRemissShare >= new_keys_; }
  static constexpr uint64_t kRemissShare = 32;
  // In split parts: a key about to be cached (`hash`: its table hash),
  // and one a full set gave up. The keys given up lately are bits of
  // ghost_ (kGhostBitsPerSlot a slot, made at the first drop after a
  // growth, while the tables can grow), so a key cached again after it
  // was given up counts as a remiss. ghost_ is cleared once a 64th of its
  // bits are set: a new key then reads as a remiss less than once in 60.
  void NewKey(uint64_t hash) {
    if (!split_part_) return;
    ++new_keys_;
    if (ghost_.empty()) return;
    const uint64_t bit = GhostBit(hash);
    remisses_ += ghost_[bit / 64] >> (bit % 64) & 1;
  }
  void Dropped(uint64_t hash);
  // Frees ghost_ and zeroes the counts (a growth, or a reset).
  void ForgetDrops();
  // The table hashes' high bits pick sets: mixed, so that keys of one set
  // spread over the ghost bits.
  uint64_t GhostBit(uint64_t hash) const { return Mix64(hash) >> ghost_shift_; }
  static constexpr size_t kGhostBitsPerSlot = 32;
  static thread_local bool in_split_part_;  // set by SplitPart, read by ForThread
  // Appends the ids a filled slot holds; false when they are gone from
  // the ring (the slot is stale).
  template <typename Slot>
  [[gnu::always_inline]] bool Emit(const Slot& s, std::vector<uint32_t>* ids) {
    const size_t n = s.ids_len;
    if (n == 1) {
      ids->push_back(s.ids.word[0]);  // most pre-tokens: one id
    } else if (n <= kInlineIds) {
      static_assert(kInlineIds == 3, "two or three ids are pushed here");
      ids->push_back(s.ids.word[0]);
      ids->push_back(s.ids.word[1]);
      if (n == 3) ids->push_back(s.ids.word[2]);
    } else {
      if (!ids_.Live(s.ids.RingPos())) return false;
      AppendIds(ids, ids_.At(s.ids.RingPos()), n);
    }
    ++hits_;
    return true;
  }
  // Stores ids in a slot; false when they cannot be cached.
  template <typename Slot>
  bool Store(Slot* s, size_t key_len, const uint32_t* ids, size_t count);

  size_t bound_;
  // Log2 of the largest table sizes the bound allows (and the spans
  // hold); the sizes the tables have once a growth found no memory.
  TableBits max_bits_{};
  // The tables' memory, zero-filled. The first, small tables are each in
  // a region of first_, on ordinary pages (2.7 MB resident for a
  // tokenizer that encodes little). A table's first growth moves it into
  // its span and frees its first region: address space reserved for the
  // bound's share (kPieceCacheHugePages), and backed only as far as the
  // table reaches. A later growth backs the next part of the span and
  // rehashes the table where it is: no copy, no new mapping (the
  // allocator is never called), and no more fresh memory than the tables
  // end up using (fresh memory is slow to back on a VM).
  HugePageRegion first_[kTables];
  HugePageRegion spans_[kTables];
  std::array<bool, kTables> in_span_{};
  ShortSet* short_ = nullptr;  // short_slots_ >> kWayBits sets
  LongSlot* long_ = nullptr;   // long_slots_
  HugeSlot* huge_ = nullptr;   // huge_slots_
  size_t short_slots_ = 0, long_slots_ = 0, huge_slots_ = 0, table_bytes_ = 0;
  uint64_t short_shift_ = 0, long_shift_ = 0, huge_shift_ = 0;  // hash >> shift: the set or slot
  std::array<size_t, kTables> cached_{};  // pre-tokens cached in each table since it last grew
  uint64_t hits_ = 0, misses_ = 0, moves_ = 0;
  uint32_t turn_ = 0;  // which way of a full set a new key takes (WayForNew)
  bool split_part_ = false;       // in_split_part_ when ForThread last gave this cache
  std::vector<uint64_t> ghost_;  // see NewKey
  uint64_t ghost_shift_ = 0;     // 64 - log2 of ghost_'s bits
  size_t ghost_keys_ = 0;        // drops since ghost_ was cleared
  uint64_t new_keys_ = 0, remisses_ = 0;  // in split parts, since the tables last grew
  PieceRing<char> key_bytes_;  // keys of the huge slots
  PieceRing<uint32_t> ids_;    // id lists longer than one
};

static_assert(sizeof(PieceCache::ShortSet) == 128, "four short slots in two cache lines");
static_assert(sizeof(PieceCache::ShortSlot) == 32, "a short slot is half a cache line");
static_assert(sizeof(PieceCache::LongSlot) == 64, "a long slot is one cache line");

template <typename Slot>
bool PieceCache::Store(Slot* s, size_t key_len, const uint32_t* ids, size_t count) {
  if (count == 0 || count > UINT16_MAX) return false;
  if (count <= kInlineIds) {
    std::memcpy(s->ids.word, ids, count * sizeof(uint32_t));
  } else {
    const uint64_t at = ids_.Put(ids, count);
    if (at == PieceRing<uint32_t>::kNone) return false;
    s->ids.word[0] = static_cast<uint32_t>(at);
    s->ids.word[1] = static_cast<uint32_t>(at >> 32);
  }
  s->key_len = static_cast<decltype(s->key_len)>(key_len);
  s->ids_len = static_cast<uint16_t>(count);
  return true;
}

// The way of a set of n that holds the key (`holds`), swapped with way 0
// first, or null. The key found last is then the first compared (in warm
// text nearly every hit is at way 0, and the way compares rarely
// mispredict: bench/README.md, fourteenth session), and a set's last way
// holds a key not met for a while, which WayForNew drops.
template <typename Slot, typename Holds>
[[gnu::always_inline]] inline Slot* FrontWay(Slot* ways, size_t n, Holds holds) {
  size_t i = 0;
  while (!holds(ways[i])) {
    if (++i == n) return nullptr;
  }
  if (i != 0) std::swap(ways[0], ways[i]);
  return ways;
}

// Moves ways [0, n - 1) one down (the oldest drops out), leaving way 0 to
// fill. Slot by slot from the end, not memmove: a call to the library's
// memmove stalled on the set's lines in the miss path.
template <typename Slot>
[[gnu::always_inline]] inline void ShiftWays(Slot* ways, size_t n) {
  for (size_t i = n - 1; i > 0; --i) ways[i] = ways[i - 1];
}

// The slot a new key takes in its set of n ways (a power of two). While
// the set has an empty way the others move down and the key goes first:
// it is likely met again soon. A full set does that every other time
// (so keys of text no longer seen age out: with FrontWay the last way is
// the key met longest ago), and otherwise gives up a way picked in turn,
// in place: moving down alone dropped the oldest key, so
// five keys met in turn in a set of four each missed every time (a warm
// pass over the mixed corpus text re-merged 2,300 long pre-tokens so; a
// way picked in turn alone let new keys evict each other while the old
// text's keys stayed).
// `dropped(slot)` is told of the key a full set gives up.
template <typename Slot, typename Dropped>
[[gnu::always_inline]] inline Slot* WayForNew(Slot* ways, size_t n, uint32_t* turn, Dropped dropped) {
  if (ways[n - 1].key_len == 0) {
    ShiftWays(ways, n);
    return ways;
  }
  if ((*turn)++ & 1) {
    dropped(ways[n - 1]);
    ShiftWays(ways, n);
    return ways;
  }
  Slot* way = ways + ((*turn >> 1) & (n - 1));
  if (way->key_len != 0) dropped(*way);  // (a failed Store leaves a way empty)
  return way;
}

inline const PieceCache::ShortSlot* PieceCache::Find(const ShortKey& k) {
  return FrontWay(SetOf(k)->way, size_t{1} << kWayBits, [&k](const ShortSlot& way) {
    return way.w0 == k.w0 && way.w1 == k.w1 && way.key_len == k.len;
  });
}

inline bool PieceCache::Append(const ShortKey& k, std::vector<uint32_t>* ids) {
  const ShortSlot* s = Find(k);
  return s != nullptr && Emit(*s, ids);
}

inline size_t PieceCache::Stage(const ShortKey& k, uint32_t* out) {
  const ShortSlot* s = Find(k);
  if (s == nullptr || s->ids_len > kInlineIds) return 0;
  std::memcpy(out, s->ids.word, sizeof(s->ids.word));
  ++hits_;
  return s->ids_len;
}

inline void PieceCache::Put(const ShortKey& k, const uint32_t* ids, size_t count) {
  NewKey(k.hash);
  ShortSlot* s = WayForNew(&SetOf(k)->way[0], size_t{1} << kWayBits, &turn_,
                           [this](const ShortSlot& gone) { Dropped(ShortHash(gone.w0, gone.w1, gone.key_len)); });
  s->key_len = 0;  // empty until filled
  if (!Store(s, k.len, ids, count)) return;
  s->w0 = k.w0;
  s->w1 = k.w1;
  Counted(kShortTable);
}

// Encodes a piece the cache did not hold and caches its ids.
template <typename Key, typename Encode>
[[gnu::noinline]] void EncodeAndCache(PieceCache& cache, const Key& k, std::string_view piece,
                                      std::vector<uint32_t>* ids, Encode& encode) {
  const size_t before = ids->size();
  const uint64_t moves = cache.moves();
  encode(piece, ids);
  cache.CountMiss();
  if (!cache.enabled()) return;
  const bool moved = cache.moves() != moves;  // a long or huge key's ways are then found again
  if constexpr (std::is_same_v<Key, PieceCache::ShortKey>) {
    cache.Put(k, ids->data() + before, ids->size() - before);
  } else if constexpr (std::is_same_v<Key, PieceCache::LongSlot*>) {
    cache.PutLong(moved ? cache.LongWays(piece) : k, piece, ids->data() + before, ids->size() - before);
  } else {
    cache.PutHuge(moved ? cache.HugeWays(piece) : k, piece, ids->data() + before, ids->size() - before);
  }
}

// Appends the ids of a short piece and its key k, from the cache or from
// encode(piece, ids) (then cached). Inlined into the callers' loops: a hit
// is a few instructions.
template <typename Encode>
[[gnu::always_inline]] inline void CachedShortIds(PieceCache& cache, const PieceCache::ShortKey& k,
                                                  std::string_view piece, std::vector<uint32_t>* ids,
                                                  Encode& encode) {
  if (!cache.Append(k, ids)) EncodeAndCache(cache, k, piece, ids, encode);
}

// The ids of a batch of short pieces that hit the cache with their ids
// in the slot (PieceCache::Stage), gathered here and appended to `ids`
// together. Whatever else goes to `ids` must Flush first. Room for
// kPieces pieces: a fuller buffer flushes itself.
template <size_t kPieces>
class StagedIds {
 public:
  explicit StagedIds(std::vector<uint32_t>* ids) : ids_(ids) {}
  StagedIds(const StagedIds&) = delete;
  StagedIds& operator=(const StagedIds&) = delete;

  // True, with its ids staged, when the cache holds short key k inline.
  [[gnu::always_inline]] bool Stage(PieceCache& cache, const PieceCache::ShortKey& k) {
    if (n_ > std::size(buf_) - PieceCache::kInlineIds) Flush();
    const size_t n = cache.Stage(k, buf_ + n_);
    n_ += n;
    return n != 0;
  }
  void Flush() {
    ids_->insert(ids_->end(), buf_, buf_ + n_);
    n_ = 0;
  }
  std::vector<uint32_t>* ids() const { return ids_; }

 private:
  uint32_t buf_[kPieces * PieceCache::kInlineIds];
  size_t n_ = 0;
  std::vector<uint32_t>* ids_;
};

// CachedShortIds for a batch loop that stages its hits.
template <size_t kPieces, typename Encode>
[[gnu::always_inline]] inline void CachedShortIds(PieceCache& cache, StagedIds<kPieces>& staged,
                                                  const PieceCache::ShortKey& k, std::string_view piece,
                                                  Encode& encode) {
  if (staged.Stage(cache, k)) return;
  staged.Flush();
  CachedShortIds(cache, k, piece, staged.ids(), encode);
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
    PieceCache::HugeSlot* ways;
    if (!cache.AppendHuge(piece, &ways, ids)) EncodeAndCache(cache, ways, piece, ids, encode);
    return;
  }
  PieceCache::LongSlot* ways;
  if (!cache.AppendLong(piece, &ways, ids)) EncodeAndCache(cache, ways, piece, ids, encode);
}

template <typename Encode>
inline void CachedIds(PieceCache& cache, std::string_view piece, std::vector<uint32_t>* ids, Encode encode) {
  CachedIds(cache, piece, piece, ids, encode);
}

// A part's id known without the cache (CachedPartsIds), or this.
inline constexpr uint32_t kUnknownId = 0xFFFFFFFFu;

// The same for the parts of a pre-token (see kPartTag), [start, ends[0]),
// [ends[0], ends[1]) and so on up to ends[n - 1]. Their sets are prefetched
// first: a CJK clause's parts then wait for memory about once, not once
// each. Parts longer than a short key are encoded each time. known[k] is
// part k's one id when the caller has it without the cache (a character
// that is one token: most parts of a CJK clause), else kUnknownId; such a
// part is neither looked up nor cached, so it pulls no cache set into the
// CPU caches.
template <size_t N, typename Encode>
inline void CachedPartsIds(PieceCache& cache, std::string_view piece, size_t start, const size_t (&ends)[N],
                           const uint32_t (&known)[N], size_t n, std::vector<uint32_t>* ids, Encode& encode) {
  PieceCache::ShortKey keys[N];
  for (size_t k = 0, from = start; k < n; from = ends[k++]) {
    const std::string_view part = piece.substr(from, ends[k] - from);
    if (known[k] != kUnknownId || !PieceCache::IsShort(part)) continue;
    keys[k] = PieceCache::MakeShort(part, piece, PieceCache::kPartTag);
    cache.Prefetch(keys[k]);
  }
  for (size_t k = 0, from = start; k < n; from = ends[k++]) {
    const std::string_view part = piece.substr(from, ends[k] - from);
    if (known[k] != kUnknownId) ids->push_back(known[k]);
    else if (PieceCache::IsShort(part)) CachedShortIds(cache, keys[k], part, ids, encode);
    else encode(part, ids);
  }
}

}  // namespace mtok
