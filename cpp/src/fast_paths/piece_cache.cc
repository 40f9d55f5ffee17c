#include "fast_paths/piece_cache.h"

#include <new>

#include "common/flat_hash.h"
#include "common/thread_pool.h"

namespace mtok {

// Zero-filled slots are empty (key_len 0). The id arena is reserved whole
// (untouched pages cost nothing), so a warm cache never reallocates.
PieceCache::PieceCache() {
  if (!short_mem_.Allocate(kShortSets * sizeof(ShortSet))) throw std::bad_alloc();
  short_ = reinterpret_cast<ShortSet*>(short_mem_.data());
  // The pool's workers only run batches: their tables start full size, so
  // they never grow (and move every entry) in the middle of one.
  if (ThreadPool::OnWorkerThread() && AllocateLong(kLongBits, kHugeBits)) {
    cached_ = kGrowAfter;  // counts on past it: no growth
  } else if (!AllocateLong(kSmallLongBits, kSmallHugeBits)) {
    throw std::bad_alloc();
  }
  arena_.reserve(kArenaIds);
  huge_bytes_.reserve(kHugeBytes);
}

void PieceCache::Populate() {
  short_mem_.Populate();
  long_mem_->Populate();
}

bool PieceCache::AllocateLong(size_t long_bits, size_t huge_bits) {
  const size_t long_slots = size_t{1} << long_bits, huge_slots = size_t{1} << huge_bits;
  const size_t long_bytes = long_slots * sizeof(LongSlot);
  auto mem = std::make_unique<HugePageRegion>();
  if (!mem->Allocate(long_bytes + huge_slots * sizeof(HugeSlot))) return false;
  long_mem_ = std::move(mem);
  long_ = reinterpret_cast<LongSlot*>(long_mem_->data());
  huge_ = reinterpret_cast<HugeSlot*>(long_mem_->data() + long_bytes);
  long_slots_ = long_slots;
  huge_slots_ = huge_slots;
  long_shift_ = static_cast<uint64_t>(64 - long_bits);
  huge_shift_ = static_cast<uint64_t>(64 - huge_bits);
  return true;
}

namespace {

// The hash of a long key from its words (zero past its end) and length.
uint64_t LongHash(const uint64_t (&w)[PieceCache::kMaxKey / 8], size_t n) {
  uint64_t h = n;
  for (uint64_t word : w) h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
  return h ^ (h >> 29);
}

}  // namespace

void PieceCache::Grow() {
  std::unique_ptr<HugePageRegion> old = std::move(long_mem_);
  const LongSlot* old_long = long_;
  const HugeSlot* old_huge = huge_;
  const size_t old_long_slots = long_slots_, old_huge_slots = huge_slots_;
  if (!AllocateLong(kLongBits, kHugeBits)) {
    long_mem_ = std::move(old);  // no memory: stay small
    return;
  }
  // Every slot keeps its key and ids (arena offsets stay valid).
  for (size_t i = 0; i < old_long_slots; ++i) {
    if (old_long[i].key_len != 0) long_[LongHash(old_long[i].w, old_long[i].key_len) >> long_shift_] = old_long[i];
  }
  for (size_t i = 0; i < old_huge_slots; ++i) {
    if (old_huge[i].key_len != 0) huge_[old_huge[i].hash >> huge_shift_] = old_huge[i];
  }
}

void PieceCache::Clear() {
  std::memset(static_cast<void*>(short_), 0, kShortSets * sizeof(ShortSet));
  std::memset(static_cast<void*>(long_), 0, long_slots_ * sizeof(LongSlot));
  arena_.clear();
  ClearHuge();
}

void PieceCache::ClearHuge() {
  std::memset(static_cast<void*>(huge_), 0, huge_slots_ * sizeof(HugeSlot));
  huge_bytes_.clear();
}

bool PieceCache::AppendHuge(std::string_view piece, HugeSlot** slot, std::vector<uint32_t>* ids) const {
  const uint64_t h = HashBytes(piece.data(), piece.size());
  HugeSlot& s = huge_[h >> huge_shift_];
  *slot = &s;
  if (s.hash != h || s.key_len != piece.size() ||
      std::memcmp(huge_bytes_.data() + s.key_off, piece.data(), piece.size()) != 0)
    return false;
  Emit(s, ids);
  return true;
}

void PieceCache::PutHuge(HugeSlot* s, std::string_view piece, const uint32_t* ids, size_t count) {
  s->key_len = 0;  // empty until filled
  if (huge_bytes_.size() + piece.size() > kHugeBytes) {
    // The byte arena is full: empty the huge slots (their ids stay in the
    // id arena as garbage until it is cleared too).
    ClearHuge();
  }
  if (!Store(s, piece.size(), ids, count)) return;
  s->hash = HashBytes(piece.data(), piece.size());
  s->key_off = static_cast<uint32_t>(huge_bytes_.size());
  huge_bytes_.insert(huge_bytes_.end(), piece.begin(), piece.end());
  Counted();
}

namespace {

// The words of a key of kMaxShort + 1..kMaxKey bytes (zero past its end)
// and its hash.
uint64_t LongKey(std::string_view piece, uint64_t (&w)[PieceCache::kMaxKey / 8]) {
  const size_t n = piece.size(), words = (n + 7) / 8;
  for (size_t k = 0; k < PieceCache::kMaxKey / 8; ++k) w[k] = k < words ? piece_key::Word(piece.data(), n, k) : 0;
  return LongHash(w, n);
}

}  // namespace

bool PieceCache::AppendLong(std::string_view piece, LongSlot** slot, std::vector<uint32_t>* ids) {
  uint64_t w[kMaxKey / 8];
  const uint64_t h = LongKey(piece, w);
  LongSlot& s = long_[h >> long_shift_];
  *slot = &s;
  if (s.key_len != piece.size() || std::memcmp(s.w, w, sizeof(w)) != 0) return false;
  Emit(s, ids);
  return true;
}

void PieceCache::PutLong(LongSlot* s, std::string_view piece, const uint32_t* ids, size_t count) {
  s->key_len = 0;  // empty until filled
  uint64_t w[kMaxKey / 8];
  LongKey(piece, w);
  if (!Store(s, piece.size(), ids, count)) return;
  std::memcpy(s->w, w, sizeof(w));
  Counted();
}

}  // namespace mtok
