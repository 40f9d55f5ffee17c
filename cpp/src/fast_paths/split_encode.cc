#include "fast_paths/split_encode.h"

#include <atomic>
#include <cstring>
#include <exception>
#include <thread>

#include "common/thread_pool.h"
#include "fast_paths/piece_cache.h"
#include "mtok/memory.h"

namespace mtok {

namespace {

// Parts per thread: a worker that wakes late, a thread whose caches are
// colder, or a part of slow text (CJK) leaves less idle time when the
// other thread can take over parts; each thread claims its own parts in
// order, so the last few are what evens the threads out (bench/README,
// twenty-second session).
constexpr size_t kPartsPerThread = 8;

// The first cut at or after `from` and before `limit`, or `limit`: a
// position at a line break (after it, or before it for a route that cuts
// there) that the route always splits at.
size_t NextCut(const IdsRoute& route, std::string_view s, size_t from, size_t limit) {
  const size_t before = route.CutsBeforeLineBreak() ? 1 : 0;
  for (size_t at = from; at < limit;) {
    const void* nl = std::memchr(s.data() + at, '\n', limit - at);
    if (nl == nullptr) break;
    const size_t after = static_cast<size_t>(static_cast<const char*>(nl) - s.data()) + 1;
    const size_t p = after - before;
    if (p < limit && route.AlwaysSplitsAt(s, p)) return p;
    at = after;
  }
  return limit;
}

// Gives back the parts' buffers (ids or normalized text) once they hold
// more than a thread keeps between calls (they grew for a huge input).
template <typename Buffer>
void GiveBackIfLarge(std::vector<Buffer>* parts) {
  size_t kept = 0;
  for (const Buffer& part : *parts) kept += part.capacity() * sizeof(*part.data());
  if (kept > kScratchKeepBytes) parts->clear();
}

// The route still always splits where `left` (ending in the line break)
// meets `right`, parts in their normalized forms: checked on the bytes
// around the join, all that AlwaysSplitsAt reads.
bool StillCut(const IdsRoute& route, std::string_view left, std::string_view right) {
  constexpr size_t kSide = IdsRoute::kCutContext;
  const size_t l = left.size() < kSide ? left.size() : kSide, r = right.size() < kSide ? right.size() : kSide;
  char around[2 * kSide];
  std::memcpy(around, left.data() + left.size() - l, l);
  std::memcpy(around + l, right.data(), r);
  return route.AlwaysSplitsAt(std::string_view(around, l + r), l);
}

}  // namespace

SplitResult EncodeSplit(const IdsRoute& route, std::string_view s, bool at_input_start, int threads,
                        std::vector<uint32_t>* ids, const PartForm* form) {
  if (!route.SplitPays(s.size(), threads)) return SplitResult::kNotSplit;
  const size_t want = static_cast<size_t>(threads) * kPartsPerThread;
  std::vector<size_t> cuts{0};
  for (size_t k = 1; k < want; ++k) {
    const size_t target = s.size() / want * k;
    if (target <= cuts.back()) continue;
    const size_t cut = NextCut(route, s, target, s.size());
    if (cut == s.size()) break;
    if (cut > cuts.back()) cuts.push_back(cut);
  }
  if (cuts.size() < 2) return SplitResult::kNotSplit;
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
  // The parts' normalized forms (with `form`), kept as the vectors are.
  thread_local std::vector<std::string> kept_forms;
  std::vector<std::string>& forms = kept_forms;
  std::vector<std::string_view> encoded(parts);  // each part as it was encoded
  if (form != nullptr && forms.size() < parts) forms.resize(parts);
  std::vector<std::exception_ptr> errors(parts);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<uint64_t> pool_bytes{0};  // warms the pool's caches (IdsRoute::SplitPays)
  ThreadPool::Shared().ParallelFor(parts, threads, [&](size_t i) {
    try {
      encoded[i] = s.substr(cuts[i], cuts[i + 1] - cuts[i]);
      if (std::this_thread::get_id() != caller) pool_bytes.fetch_add(encoded[i].size(), std::memory_order_relaxed);
      if (form != nullptr) encoded[i] = (*form)(encoded[i], &forms[i]);
      const PieceCache::SplitPart part;
      route.Encode(encoded[i], at_input_start && i == 0, &out[i]);
    } catch (...) {
      errors[i] = std::current_exception();  // ParallelFor's fn must not throw
    }
  });
  for (const std::exception_ptr& e : errors) {
    if (!e) continue;
    route.CountSplit(false, pool_bytes.load());
    GiveBackIfLarge(&out);  // a failed encode keeps nothing large either
    GiveBackIfLarge(&forms);
    std::rethrow_exception(e);
  }
  bool cut = true;
  for (size_t i = 1; form != nullptr && cut && i < parts; ++i) {
    const bool changed = encoded[i - 1].data() != s.data() + cuts[i - 1] || encoded[i].data() != s.data() + cuts[i];
    cut = !changed || StillCut(route, encoded[i - 1], encoded[i]);
  }
  GiveBackIfLarge(&forms);
  route.CountSplit(cut, pool_bytes.load());
  if (!cut) {
    GiveBackIfLarge(&out);
    return SplitResult::kCutsChanged;
  }
  size_t total = 0;
  for (size_t i = 0; i < parts; ++i) total += out[i].size();
  ids->reserve(ids->size() + total);
  for (size_t i = 0; i < parts; ++i) ids->insert(ids->end(), out[i].begin(), out[i].end());
  GiveBackIfLarge(&out);
  return SplitResult::kEncoded;
}

}  // namespace mtok
