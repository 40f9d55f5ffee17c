// A small direct-mapped cache from pre-token bytes to ids, one per thread
// and route (the ids fast paths). Natural text repeats its words, so most pre-tokens skip
// the merge loop. Bounded: a slot is overwritten on collision and the id
// arena is cleared when full.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/flat_hash.h"

namespace mtok {

class PieceCache {
 public:
  static constexpr size_t kMaxKey = 40;  // longer pre-tokens rarely repeat

  // The id arena is reserved whole (untouched pages cost nothing), so a
  // warm cache never reallocates.
  PieceCache() { ids_.reserve(kArenaIds); }

  // Appends the cached ids of `key` and returns true, or returns false.
  bool Append(std::string_view key, uint64_t h, std::vector<uint32_t>* ids) const {
    const Slot& s = slots_[h & kMask];
    if (s.hash != h || s.key_len != key.size() || s.gen != gen_) return false;
    if (std::memcmp(s.key, key.data(), key.size()) != 0) return false;
    if (s.ids_len == 1) ids->push_back(s.first_id);  // most pre-tokens: one id, in the slot
    else ids->insert(ids->end(), ids_.data() + s.ids_off, ids_.data() + s.ids_off + s.ids_len);
    return true;
  }
  void Put(std::string_view key, uint64_t h, const uint32_t* ids, size_t n) {
    if (key.size() > kMaxKey || n == 0 || n > UINT16_MAX) return;
    if (n > 1 && ids_.size() + n > kArenaIds) {
      ids_.clear();
      ++gen_;  // invalidates every slot at once
    }
    Slot& s = slots_[h & kMask];
    s.hash = h;
    s.gen = gen_;
    s.first_id = ids[0];
    s.ids_len = static_cast<uint16_t>(n);
    s.key_len = static_cast<uint8_t>(key.size());
    std::memcpy(s.key, key.data(), key.size());
    if (n > 1) {
      s.ids_off = static_cast<uint32_t>(ids_.size());
      ids_.insert(ids_.end(), ids, ids + n);
    }
  }

  // A key for a new cache owner (a route): ForThread(owner) gives this
  // thread's cache for it. A thread keeps caches for a few owners, so
  // alternating between tokenizers stays cheap.
  static uint64_t NewOwner();
  static PieceCache& ForThread(uint64_t owner);

 private:
  static constexpr size_t kSlots = 1 << 14, kMask = kSlots - 1;
  static constexpr size_t kArenaIds = 1 << 19;
  // One cache line: the key bytes and a single id live in the slot, so a
  // hit reads nothing else.
  struct alignas(64) Slot {
    uint64_t hash = 0;
    uint32_t gen = ~0u;
    uint32_t first_id = 0;
    uint32_t ids_off = 0;
    uint16_t ids_len = 0;
    uint8_t key_len = 0;
    char key[kMaxKey + 1];
  };
  static_assert(sizeof(Slot) == 64, "a slot is one cache line");
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
  std::vector<uint32_t> ids_;  // id lists longer than one
  uint32_t gen_ = 0;
};

// Appends the ids of `piece`, from the cache or from encode(piece, ids)
// (then cached).
template <typename Encode>
void CachedIds(PieceCache& cache, std::string_view piece, std::vector<uint32_t>* ids, Encode encode) {
  if (piece.size() > PieceCache::kMaxKey) {
    encode(piece, ids);
    return;
  }
  const uint64_t h = HashBytes(piece.data(), piece.size());
  if (cache.Append(piece, h, ids)) return;
  const size_t before = ids->size();
  encode(piece, ids);
  cache.Put(piece, h, ids->data() + before, ids->size() - before);
}

}  // namespace mtok
