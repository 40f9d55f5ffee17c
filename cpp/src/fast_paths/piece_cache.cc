#include "fast_paths/piece_cache.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

#include "common/flat_hash.h"
#include "mtok/piece_cache.h"

namespace mtok {

namespace {

constexpr size_t kUnset = ~size_t{0};
std::atomic<size_t> g_bound{kUnset};

// MTOK_CACHE_MB as bytes; kDefaultBound when unset or empty.
size_t BoundFromEnv() {
  const char* env = std::getenv("MTOK_CACHE_MB");
  if (env == nullptr || *env == '\0') return PieceCache::kDefaultBound;
  char* end = nullptr;
  const unsigned long long mb = std::strtoull(env, &end, 10);
  if (*end != '\0' || env[0] == '-' || mb > (size_t{1} << 20)) {
    throw std::invalid_argument(std::string("MTOK_CACHE_MB=") + env +
                                " is not a whole number of MB from 0 to 1048576");
  }
  return static_cast<size_t>(mb) << 20;
}

// log2 of the largest power of two of `slot`-byte slots in `budget` bytes
// (at least `floor`).
size_t BitsFor(size_t budget, size_t slot, size_t floor) {
  size_t bits = floor;
  while ((size_t{2} << bits) * slot <= budget) ++bits;
  return bits;
}

size_t PowerOfTwoFloor(size_t n) {
  size_t p = 1;
  while (p * 2 <= n) p *= 2;
  return n == 0 ? 0 : p;
}

static_assert(PieceCache::kMaxKey / 8 == 6, "LongHash and SameWords take six words");

// The hash of a long key from its words (zero past its end) and length.
// The products are independent (a chain of six multiplies waited for each
// other); the set is the sum's high bits, which depend on every bit.
uint64_t LongHash(const uint64_t (&w)[PieceCache::kMaxKey / 8], size_t n) {
  return ((w[0] * 0x9E3779B97F4A7C15ULL) ^ (w[1] * 0xC2B2AE3D27D4EB4FULL)) +
         ((w[2] * 0x165667B19E3779F9ULL) ^ (w[3] * 0xD6E8FEB86659FD93ULL)) +
         ((w[4] * 0xFF51AFD7ED558CCDULL) ^ ((w[5] + n) * 0xC4CEB9FE1A85EC53ULL));
}

// Whether a slot's key words are `w` (the length compared apart): six
// words at once, with no call to memcmp.
bool SameWords(const uint64_t (&a)[PieceCache::kMaxKey / 8], const uint64_t (&b)[PieceCache::kMaxKey / 8]) {
  return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]) | (a[5] ^ b[5])) == 0;
}

// The words of a key of kMaxShort + 1..kMaxKey bytes (zero past its end)
// and its hash.
uint64_t LongKey(std::string_view piece, uint64_t (&w)[PieceCache::kMaxKey / 8]) {
  const size_t n = piece.size(), words = (n + 7) / 8;
  for (size_t k = 0; k < PieceCache::kMaxKey / 8; ++k) w[k] = k < words ? piece_key::Word(piece.data(), n, k) : 0;
  return LongHash(w, n);
}

// The long and huge tables are four-way: the set of slots (ways) a hash
// selects lie side by side, the entry cached or hit last first. (Two
// ways thrashed: a set that three keys share misses all three on every
// pass over a text, and a pass over 6.6 MB of mixed text re-merged 7,000
// long pre-tokens.)
constexpr size_t kSetBits = 2, kSetWays = size_t{1} << kSetBits;

template <typename Slot>
Slot* WaysOf(Slot* table, uint64_t hash, uint64_t shift) {
  return table + ((hash >> shift) & ~uint64_t{kSetWays - 1});
}

}  // namespace

size_t PieceCache::Bound() {
  size_t b = g_bound.load(std::memory_order_relaxed);
  if (b == kUnset) {
    b = BoundFromEnv();  // throws on a bad value, every time it is asked
    size_t expected = kUnset;
    if (!g_bound.compare_exchange_strong(expected, b)) b = expected;  // SetBound came first
  }
  return b;
}

void PieceCache::SetBound(size_t bytes) { g_bound.store(bytes == kUnset ? bytes - 1 : bytes); }

size_t PieceCacheBound() { return PieceCache::Bound(); }
void SetPieceCacheBound(size_t bytes) { PieceCache::SetBound(bytes); }

PieceCache& PieceCache::ForThread(uint64_t owner) {
  PieceCache& c = ForOwner<PieceCache>(owner);
  const size_t bound = Bound();
  if (c.bound_ != bound) c.Reset(bound);
  c.split_part_ = in_split_part_;
  return c;
}

template <typename T>
bool PieceRing<T>::Allocate(size_t capacity) {
  mem_.reset();
  data_ = nullptr;
  capacity_ = 0;
  head_ = 0;
  if (capacity == 0) return true;
  auto mem = std::make_unique<HugePageRegion>();
  if (!mem->Allocate(capacity * sizeof(T), kPieceCacheHugePages)) return false;
  mem_ = std::move(mem);
  data_ = reinterpret_cast<T*>(mem_->data());
  capacity_ = capacity;
  return true;
}

template <typename T>
uint64_t PieceRing<T>::Put(const T* src, size_t n) {
  if (n == 0 || n > capacity_) return kNone;
  uint64_t at = head_;
  const size_t offset = at & (capacity_ - 1);
  if (offset + n > capacity_) at += capacity_ - offset;  // contiguous: skip to the ring's start
  std::memcpy(data_ + (at & (capacity_ - 1)), src, n * sizeof(T));
  head_ = at + n;
  return at;
}

template class PieceRing<char>;
template class PieceRing<uint32_t>;

void PieceCache::Reset(size_t bound) {
  bound_ = bound;
  // The bound's shares (see kShortBits): bound 0 leaves two empty sets
  // per table, never filled. (Two, not one: a hash shifts by less than 64
  // bits.)
  max_bits_ = {bound ? BitsFor(bound / 8 * 3, sizeof(ShortSlot), kWayBits + 1) : kWayBits + 1,
               bound ? BitsFor(bound / 8, sizeof(LongSlot), kSetBits + 1) : kSetBits + 1,
               bound ? BitsFor(bound / 16, sizeof(HugeSlot), kSetBits + 1) : kSetBits + 1};
  cached_ = {};
  hits_ = misses_ = 0;
  ForgetDrops();
  in_span_ = {};
  for (HugePageRegion& span : spans_) span.Release();
  const TableBits bits{std::min(kShortBits, max_bits_[kShortTable]), std::min(kLongBits, max_bits_[kLongTable]),
                       std::min(kHugeBits, max_bits_[kHugeTable])};
  const SpanBytes bytes = BytesOf(bits);
  for (size_t t = 0; t < kTables; ++t) {
    first_[t].Release();
    if (!first_[t].Allocate(bytes[t], /*huge=*/false)) throw std::bad_alloc();
    // Backed now, all of it: a lookup reads a slot before it is first
    // written. The read maps the kernel's shared zero page, and the write
    // after it must replace that mapping, which costs every other CPU
    // running this process an interrupt to flush its TLB (split encodes
    // and batches run two threads). (The spans likewise, as far as the
    // tables reach.)
    first_[t].Populate();
  }
  PointTables(bits, first_[kShortTable].data(), first_[kLongTable].data(), first_[kHugeTable].data());
  // The rings' address space, as much of their shares as the kernel maps
  // (a bound far past the machine's memory gets less). Without them, keys
  // of one id and up to 48 bytes still cache.
  for (size_t cap = bound ? PowerOfTwoFloor(bound / 4 / sizeof(uint32_t)) : 0; !ids_.Allocate(cap);) cap /= 2;
  for (size_t cap = bound ? PowerOfTwoFloor(bound / 8) : 0; !key_bytes_.Allocate(cap);) cap /= 2;
}

PieceCache::SpanBytes PieceCache::BytesOf(const TableBits& bits) {
  return {(size_t{1} << bits[kShortTable]) * sizeof(ShortSlot), (size_t{1} << bits[kLongTable]) * sizeof(LongSlot),
          (size_t{1} << bits[kHugeTable]) * sizeof(HugeSlot)};
}

size_t PieceCache::TableBytes(const TableBits& bits) {
  const SpanBytes b = BytesOf(bits);
  return b[0] + b[1] + b[2];
}

namespace {

size_t Log2(size_t n) {
  size_t b = 0;
  while ((size_t{1} << b) < n) ++b;
  return b;
}

}  // namespace

PieceCache::TableBits PieceCache::Bits() const {
  return {Log2(short_slots_), Log2(long_slots_), Log2(huge_slots_)};
}

void PieceCache::PointTables(const TableBits& bits, uint8_t* short_sets, uint8_t* longs, uint8_t* huges) {
  ++moves_;
  short_ = reinterpret_cast<ShortSet*>(short_sets);
  long_ = reinterpret_cast<LongSlot*>(longs);
  huge_ = reinterpret_cast<HugeSlot*>(huges);
  short_slots_ = size_t{1} << bits[kShortTable];
  long_slots_ = size_t{1} << bits[kLongTable];
  huge_slots_ = size_t{1} << bits[kHugeTable];
  table_bytes_ = TableBytes(bits);
  short_shift_ = static_cast<uint64_t>(64 - bits[kShortTable] + kWayBits);
  long_shift_ = static_cast<uint64_t>(64 - bits[kLongTable]);
  huge_shift_ = static_cast<uint64_t>(64 - bits[kHugeTable]);
}

uint8_t* PieceCache::TableData(Table t) const {
  uint8_t* const data[kTables] = {reinterpret_cast<uint8_t*>(short_), reinterpret_cast<uint8_t*>(long_),
                                  reinterpret_cast<uint8_t*>(huge_)};
  return data[t];
}

bool PieceCache::ReserveSpans() {
  if (spans_[0].data() != nullptr) return true;
  const TableBits now = Bits();
  while (true) {
    const SpanBytes bytes = BytesOf(max_bits_);
    bool reserved = true;
    for (size_t t = 0; t < kTables && reserved; ++t) reserved = spans_[t].Allocate(bytes[t], kPieceCacheHugePages);
    if (reserved) return true;
    for (HugePageRegion& span : spans_) span.Release();
    // A bound far past the machine's memory (the kernel refuses a mapping
    // that large): the tables stop growing at what it grants, halving each
    // maximum down to one growth past the table's size.
    bool lowered = false;
    for (size_t t = 0; t < kTables; ++t) {
      if (max_bits_[t] <= now[t] + 1) continue;
      --max_bits_[t];
      lowered = true;
    }
    if (!lowered) return false;
  }
}

namespace {

static_assert(size_t{1} << PieceCache::kWayBits == kSetWays && sizeof(PieceCache::ShortSet) ==
                  kSetWays * sizeof(PieceCache::ShortSlot),
              "RehashInPlace takes the short sets as runs of kSetWays slots");

// Inserts a cached entry as the newest way of its set `ways` (the oldest
// drops out).
template <typename Slot>
void InsertNewest(Slot* ways, const Slot& s) {
  ShiftWays(ways, kSetWays);
  *ways = s;
}

// Rehashes a table of kSetWays-way sets (ways side by side, the newest
// first) where it is, from old_sets sets to old_sets << grow. An entry of
// set s lands in one of the sets from s << grow on, which lie at or after
// s: the sets are moved from the last one down, each emptied before any
// entry lands in it, and entries past old_sets land in zeroed memory.
// A set's oldest way goes in first, so its newest stays first.
template <typename Slot, typename SetOf>
void RehashInPlace(Slot* ways, size_t old_sets, size_t grow, SetOf set_of) {
  if (grow == 0) return;
  for (size_t set = old_sets; set-- > 0;) {
    Slot held[kSetWays];
    std::memcpy(static_cast<void*>(held), ways + set * kSetWays, sizeof(held));
    std::memset(static_cast<void*>(ways + set * kSetWays), 0, sizeof(held));
    for (size_t w = kSetWays; w-- > 0;) {
      if (held[w].key_len != 0) InsertNewest(ways + set_of(held[w]) * kSetWays, held[w]);
    }
  }
}

}  // namespace

thread_local bool PieceCache::in_split_part_ = false;

void PieceCache::ForgetDrops() {
  new_keys_ = remisses_ = 0;
  std::vector<uint64_t>().swap(ghost_);
  ghost_keys_ = 0;
}

void PieceCache::Dropped(uint64_t hash) {
  if (!split_part_ || !AnyCanGrow()) return;
  const size_t bits = ghost_.size() * 64;
  if (bits == 0) {
    const size_t want = PowerOfTwoFloor((short_slots_ + long_slots_ + huge_slots_) * kGhostBitsPerSlot);
    try {
      ghost_.assign(want / 64, 0);
    } catch (const std::bad_alloc&) {
      return;  // no memory: no remisses, and a split keeps its tables
    }
    ghost_shift_ = 64 - static_cast<uint64_t>(__builtin_ctzll(want));
    ghost_keys_ = 0;
  } else if (ghost_keys_ >= bits / 64) {
    std::fill(ghost_.begin(), ghost_.end(), 0);
    ghost_keys_ = 0;
  }
  ++ghost_keys_;
  const uint64_t bit = GhostBit(hash);
  ghost_[bit / 64] |= uint64_t{1} << (bit % 64);
}

void PieceCache::Grow(Table t) {
  cached_[t] = 0;
  ForgetDrops();  // the ghost bits are made again for the new sizes
  const TableBits old = Bits();
  if (!ReserveSpans()) {
    max_bits_ = old;  // no memory: the tables stay this size
    return;
  }
  if (!CanGrow(t)) return;  // ReserveSpans lowered its maximum
  TableBits next = old;
  next[t] = std::min(old[t] + 2, max_bits_[t]);
  const SpanBytes from = BytesOf(old), to = BytesOf(next);
  spans_[t].Populate(in_span_[t] ? from[t] : 0, to[t]);
  if (!in_span_[t]) {
    // Its first growth: the table to the start of its span (ring
    // positions stay valid), then rehashed there as later growths are.
    std::memcpy(spans_[t].data(), TableData(t), from[t]);
    first_[t].Release();
    in_span_[t] = true;
  }
  uint8_t* data[kTables] = {TableData(kShortTable), TableData(kLongTable), TableData(kHugeTable)};
  data[t] = spans_[t].data();
  PointTables(next, data[kShortTable], data[kLongTable], data[kHugeTable]);
  const size_t grow = next[t] - old[t];
  switch (t) {
    case kShortTable:
      RehashInPlace(&short_[0].way[0], size_t{1} << (old[t] - kWayBits), grow, [this](const ShortSlot& s) {
        return ShortHash(s.w0, s.w1, s.key_len) >> short_shift_;
      });
      break;
    case kLongTable:
      RehashInPlace(long_, size_t{1} << (old[t] - kSetBits), grow, [this](const LongSlot& s) {
        return (LongHash(s.w, s.key_len) >> long_shift_) / kSetWays;
      });
      break;
    default:
      RehashInPlace(huge_, size_t{1} << (old[t] - kSetBits), grow,
                    [this](const HugeSlot& s) { return (s.hash >> huge_shift_) / kSetWays; });
  }
}

PieceCache::Stats PieceCache::GetStats() const {
  const size_t rings = ids_.used() * sizeof(uint32_t) + key_bytes_.used() + ghost_.size() * sizeof(uint64_t);
  return {bound_, table_bytes_ + rings, hits_, misses_};
}

void PieceCache::Describe(std::vector<std::pair<std::string, std::string>>* out) const {
  const Stats s = GetStats();
  const uint64_t lookups = s.hits + s.misses;
  char text[160];
  std::snprintf(text, sizeof(text), "this thread: %.1f MB of a %.1f MB bound, %.1f%% hits of %llu lookups",
                static_cast<double>(s.bytes) / (1 << 20), static_cast<double>(s.bound) / (1 << 20),
                lookups ? 100.0 * static_cast<double>(s.hits) / static_cast<double>(lookups) : 0.0,
                static_cast<unsigned long long>(lookups));
  out->emplace_back("piece_cache", enabled() ? text : "off (bound 0)");
  out->emplace_back("piece_cache_bound", std::to_string(s.bound));
  out->emplace_back("piece_cache_bytes", std::to_string(s.bytes));
  out->emplace_back("piece_cache_hits", std::to_string(s.hits));
  out->emplace_back("piece_cache_misses", std::to_string(s.misses));
}

PieceCache::HugeSlot* PieceCache::HugeWays(std::string_view piece) const {
  return WaysOf(huge_, HashBytes(piece.data(), piece.size()), huge_shift_);
}

PieceCache::LongSlot* PieceCache::LongWays(std::string_view piece) const {
  uint64_t w[kMaxKey / 8];
  return WaysOf(long_, LongKey(piece, w), long_shift_);
}

bool PieceCache::AppendHuge(std::string_view piece, HugeSlot** ways, std::vector<uint32_t>* ids) {
  const uint64_t h = HashBytes(piece.data(), piece.size());
  HugeSlot* set = WaysOf(huge_, h, huge_shift_);
  *ways = set;
  const HugeSlot* s = FrontWay(set, kSetWays, [&](const HugeSlot& way) {
    return way.hash == h && way.key_len == piece.size() && key_bytes_.Live(way.key_off) &&
           std::memcmp(key_bytes_.At(way.key_off), piece.data(), piece.size()) == 0;
  });
  return s != nullptr && Emit(*s, ids);
}

void PieceCache::PutHuge(HugeSlot* ways, std::string_view piece, const uint32_t* ids, size_t count) {
  const uint64_t hash = HashBytes(piece.data(), piece.size());
  NewKey(hash);
  HugeSlot* s = WayForNew(ways, kSetWays, &turn_, [this](const HugeSlot& gone) { Dropped(gone.hash); });
  s->key_len = 0;  // empty until filled
  const uint64_t at = key_bytes_.Put(piece.data(), piece.size());
  if (at == PieceRing<char>::kNone) return;
  if (!Store(s, piece.size(), ids, count)) return;
  s->hash = hash;
  s->key_off = at;
  Counted(kHugeTable);
}

bool PieceCache::AppendLong(std::string_view piece, LongSlot** ways, std::vector<uint32_t>* ids) {
  uint64_t w[kMaxKey / 8];
  const uint64_t h = LongKey(piece, w);
  LongSlot* set = WaysOf(long_, h, long_shift_);
  *ways = set;
  const LongSlot* s =
      FrontWay(set, kSetWays, [&](const LongSlot& way) { return way.key_len == piece.size() && SameWords(way.w, w); });
  return s != nullptr && Emit(*s, ids);
}

void PieceCache::PutLong(LongSlot* ways, std::string_view piece, const uint32_t* ids, size_t count) {
  uint64_t w[kMaxKey / 8];
  NewKey(LongKey(piece, w));
  LongSlot* s = WayForNew(ways, kSetWays, &turn_, [this](const LongSlot& gone) { Dropped(LongHash(gone.w, gone.key_len)); });
  s->key_len = 0;  // empty until filled
  if (!Store(s, piece.size(), ids, count)) return;
  std::memcpy(s->w, w, sizeof(w));
  Counted(kLongTable);
}

}  // namespace mtok
