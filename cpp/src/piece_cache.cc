#include "piece_cache.h"

#include <array>
#include <atomic>
#include <memory>
#include <utility>

namespace mtok {

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
