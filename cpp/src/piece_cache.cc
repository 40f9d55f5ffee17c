#include "piece_cache.h"

#include <new>

#include "common/flat_hash.h"

namespace mtok {

// Zero-filled slots are empty (key_len 0). The id arena is reserved whole
// (untouched pages cost nothing), so a warm cache never reallocates.
PieceCache::PieceCache() {
  const size_t short_bytes = kShortSets * sizeof(ShortSet), long_bytes = kLongSlots * sizeof(LongSlot);
  if (!mem_.Allocate(short_bytes + long_bytes + kHugeSlots * sizeof(HugeSlot)))
    throw std::bad_alloc();
  short_ = reinterpret_cast<ShortSet*>(mem_.data());
  long_ = reinterpret_cast<LongSlot*>(mem_.data() + short_bytes);
  huge_ = reinterpret_cast<HugeSlot*>(mem_.data() + short_bytes + long_bytes);
  arena_.reserve(kArenaIds);
  huge_bytes_.reserve(kHugeBytes);
}

void PieceCache::Clear() {
  std::memset(static_cast<void*>(short_), 0, kShortSets * sizeof(ShortSet));
  std::memset(static_cast<void*>(long_), 0, kLongSlots * sizeof(LongSlot));
  arena_.clear();
  ClearHuge();
}

void PieceCache::ClearHuge() {
  std::memset(static_cast<void*>(huge_), 0, kHugeSlots * sizeof(HugeSlot));
  huge_bytes_.clear();
}

bool PieceCache::AppendHuge(std::string_view piece, HugeSlot** slot, std::vector<uint32_t>* ids) const {
  const uint64_t h = HashBytes(piece.data(), piece.size());
  HugeSlot& s = huge_[h >> (64 - kHugeBits)];
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
}

namespace {

// The words of a key of kMaxShort + 1..kMaxKey bytes (zero past its end)
// and its hash.
uint64_t LongKey(std::string_view piece, uint64_t (&w)[PieceCache::kMaxKey / 8]) {
  const size_t n = piece.size(), words = (n + 7) / 8;
  uint64_t h = n;
  for (size_t k = 0; k < PieceCache::kMaxKey / 8; ++k) {
    w[k] = k < words ? piece_key::Word(piece.data(), n, k) : 0;
    h = (h ^ w[k]) * 0x9E3779B97F4A7C15ULL;
  }
  return h ^ (h >> 29);
}

}  // namespace

bool PieceCache::AppendLong(std::string_view piece, LongSlot** slot, std::vector<uint32_t>* ids) {
  uint64_t w[kMaxKey / 8];
  const uint64_t h = LongKey(piece, w);
  LongSlot& s = long_[h >> (64 - kLongBits)];
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
}

}  // namespace mtok
