#include "piece_cache.h"

#include <array>
#include <atomic>
#include <memory>
#include <utility>

namespace mtok {

// Value-initialized slots are empty (key_len 0). The id arena is reserved
// whole (untouched pages cost nothing), so a warm cache never reallocates.
PieceCache::PieceCache() : short_(size_t{1} << (kShortBits - 1)), long_(size_t{1} << kLongBits) {
  arena_.reserve(kArenaIds);
}

void PieceCache::Clear() {
  std::memset(static_cast<void*>(short_.data()), 0, short_.size() * sizeof(ShortSet));
  std::memset(static_cast<void*>(long_.data()), 0, long_.size() * sizeof(LongSlot));
  arena_.clear();
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

uint64_t PieceCache::NewOwner() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

PieceCache& PieceCache::ForThread(uint64_t owner) {
  constexpr size_t kKept = 4;
  thread_local std::array<std::pair<uint64_t, std::unique_ptr<PieceCache>>, kKept> caches;
  thread_local size_t next_victim = 0;
  for (auto& [key, cache] : caches) {
    if (key == owner) return *cache;
  }
  auto& slot = caches[next_victim];
  next_victim = (next_victim + 1) % kKept;
  slot.first = owner;
  slot.second = std::make_unique<PieceCache>();
  return *slot.second;
}

}  // namespace mtok
