#include "fast_paths/split_encode.h"

#include <cstring>
#include <exception>

#include "common/thread_pool.h"
#include "fast_paths/piece_cache.h"
#include "mtok/memory.h"

namespace mtok {

namespace {

// Parts per thread: a worker that wakes late, or a part of slow text
// (CJK), leaves less idle time when the other thread can take over parts.
constexpr size_t kPartsPerThread = 4;

// The first cut at or after `from` and before `limit`, or `limit`: a
// position after a line break that the route always splits at.
size_t NextCut(const IdsRoute& route, std::string_view s, size_t from, size_t limit) {
  for (size_t at = from; at < limit;) {
    const void* nl = std::memchr(s.data() + at, '\n', limit - at);
    if (nl == nullptr) break;
    const size_t p = static_cast<size_t>(static_cast<const char*>(nl) - s.data()) + 1;
    if (p < limit && route.AlwaysSplitsAt(s, p)) return p;
    at = p;
  }
  return limit;
}

// Gives back the parts' vectors once they hold more than a thread keeps
// between calls (they grew for a huge input).
void GiveBackIfLarge(std::vector<std::vector<uint32_t>>* parts) {
  size_t kept = 0;
  for (const auto& part : *parts) kept += part.capacity() * sizeof(uint32_t);
  if (kept > kScratchKeepBytes) parts->clear();
}

}  // namespace

bool EncodeSplit(const IdsRoute& route, std::string_view s, bool at_input_start, int threads,
                 std::vector<uint32_t>* ids) {
  if (threads < 2 || s.size() < EncodeOptions::kSplitMinBytes) return false;
  const size_t want = static_cast<size_t>(threads) * kPartsPerThread;
  std::vector<size_t> cuts{0};
  for (size_t k = 1; k < want; ++k) {
    const size_t target = s.size() / want * k;
    if (target <= cuts.back()) continue;
    const size_t cut = NextCut(route, s, target, s.size());
    if (cut == s.size()) break;
    if (cut > cuts.back()) cuts.push_back(cut);
  }
  if (cuts.size() < 2) return false;
  cuts.push_back(s.size());
  const size_t parts = cuts.size() - 1;
  // The parts' ids, kept by the calling thread between calls: fresh
  // vectors cost every long encode their growth copies and the kernel's
  // clearing of new pages, on each thread.
  // (A reference: the workers' lambda must see the caller's vectors, not
  // their own thread's.)
  thread_local std::vector<std::vector<uint32_t>> kept_parts;
  std::vector<std::vector<uint32_t>>& out = kept_parts;
  if (out.size() < parts) out.resize(parts);
  for (size_t i = 0; i < parts; ++i) out[i].clear();
  std::vector<std::exception_ptr> errors(parts);
  ThreadPool::Shared().ParallelFor(parts, threads, [&](size_t i) {
    try {
      const PieceCache::SplitPart part;
      route.Encode(s.substr(cuts[i], cuts[i + 1] - cuts[i]), at_input_start && i == 0, &out[i]);
    } catch (...) {
      errors[i] = std::current_exception();  // ParallelFor's fn must not throw
    }
  });
  for (const std::exception_ptr& e : errors) {
    if (!e) continue;
    GiveBackIfLarge(&out);  // a failed encode keeps nothing large either
    std::rethrow_exception(e);
  }
  size_t total = 0;
  for (size_t i = 0; i < parts; ++i) total += out[i].size();
  ids->reserve(ids->size() + total);
  for (size_t i = 0; i < parts; ++i) ids->insert(ids->end(), out[i].begin(), out[i].end());
  GiveBackIfLarge(&out);
  return true;
}

}  // namespace mtok
