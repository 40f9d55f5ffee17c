// A small direct-mapped cache from pre-token bytes to ids, one per thread
// and route (the ids fast paths). Natural text repeats its words, so most pre-tokens skip
// the merge loop. Bounded: a slot is overwritten on collision and the
// arenas are cleared when full.
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
  static constexpr size_t kMaxKey = 32;  // longer pre-tokens rarely repeat

  // Ids for `key` if cached: [*begin, *begin + *count) of ids().
  bool Find(std::string_view key, uint64_t h, uint32_t* begin, uint32_t* count) const {
    const Slot& s = slots_[h & kMask];
    if (s.hash != h || s.key_len != key.size() || s.gen != gen_) return false;
    if (std::memcmp(keys_.data() + s.key_off, key.data(), key.size()) != 0) return false;
    *begin = s.ids_off;
    *count = s.ids_len;
    return true;
  }
  void Put(std::string_view key, uint64_t h, const uint32_t* ids, size_t n) {
    if (keys_.size() + key.size() > kArenaBytes || ids_.size() + n > kArenaIds) {
      keys_.clear();
      ids_.clear();
      ++gen_;  // invalidates every slot at once
    }
    Slot& s = slots_[h & kMask];
    s = Slot{h, static_cast<uint32_t>(keys_.size()), static_cast<uint32_t>(key.size()),
             static_cast<uint32_t>(ids_.size()), static_cast<uint32_t>(n), gen_};
    keys_.append(key);
    ids_.insert(ids_.end(), ids, ids + n);
  }
  const uint32_t* ids() const { return ids_.data(); }

  // A key for a new cache owner (a route): ForThread(owner) gives this
  // thread's cache for it. A thread keeps caches for a few owners, so
  // alternating between tokenizers stays cheap.
  static uint64_t NewOwner();
  static PieceCache& ForThread(uint64_t owner);

 private:
  static constexpr size_t kSlots = 1 << 14, kMask = kSlots - 1;
  static constexpr size_t kArenaBytes = 1 << 20, kArenaIds = 1 << 19;
  struct Slot {
    uint64_t hash = 0;
    uint32_t key_off = 0, key_len = 0, ids_off = 0, ids_len = 0;
    uint64_t gen = ~0ULL;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(kSlots);
  std::string keys_;
  std::vector<uint32_t> ids_;
  uint64_t gen_ = 0;
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
  uint32_t begin, count;
  if (cache.Find(piece, h, &begin, &count)) {
    if (count == 1) ids->push_back(cache.ids()[begin]);  // most words: cheaper than insert
    else ids->insert(ids->end(), cache.ids() + begin, cache.ids() + begin + count);
    return;
  }
  const size_t before = ids->size();
  encode(piece, ids);
  cache.Put(piece, h, ids->data() + before, ids->size() - before);
}

}  // namespace mtok
