#include "common/huge_pages.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>

namespace mtok {
namespace {

constexpr size_t kHuge = size_t{2} << 20;

size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

}  // namespace

HugePageRegion::~HugePageRegion() { Release(); }

void HugePageRegion::Release() {
  if (map_ != nullptr) munmap(map_, map_size_);
  map_ = nullptr;
  data_ = nullptr;
  size_ = map_size_ = 0;
  kind_ = Kind::kNone;
}

const char* HugePageRegion::KindName(Kind k) {
  switch (k) {
    case Kind::kHugeTlb: return "2 MB pages (MAP_HUGETLB)";
    case Kind::kTransparent: return "2 MB transparent huge pages (madvise)";
    case Kind::kNormal: return "4 KB pages";
    case Kind::kNone: break;
  }
  return "none";
}

bool HugePageRegion::Allocate(size_t size, bool huge) {
  if (size == 0 || map_ != nullptr) return false;
  const size_t rounded = RoundUp(size, kHuge);
  // MTOK_HUGE_PAGES=0 turns huge pages off (for comparisons).
  const char* env = std::getenv("MTOK_HUGE_PAGES");
  const bool allowed = huge && (env == nullptr || env[0] != '0');
#ifdef MAP_HUGETLB
  if (allowed) {
    void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
    if (p != MAP_FAILED) {
      map_ = p;
      map_size_ = rounded;
      data_ = static_cast<uint8_t*>(p);
      size_ = rounded;
      kind_ = Kind::kHugeTlb;
      return true;
    }
    // Over-allocate by one huge page so a 2 MB-aligned start fits: the
    // kernel backs aligned 2 MB extents with huge pages.
    p = mmap(nullptr, rounded + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      uint8_t* aligned = reinterpret_cast<uint8_t*>(RoundUp(reinterpret_cast<uintptr_t>(p), kHuge));
      map_ = p;
      map_size_ = rounded + kHuge;
      data_ = aligned;
      size_ = rounded;
      kind_ = madvise(aligned, rounded, MADV_HUGEPAGE) == 0 ? Kind::kTransparent : Kind::kNormal;
      return true;
    }
  }
#endif
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return false;
#ifdef MADV_NOHUGEPAGE
  if (!allowed) madvise(p, size, MADV_NOHUGEPAGE);  // advice only: a failure leaves the kernel's default
#endif
  map_ = p;
  map_size_ = size;
  data_ = static_cast<uint8_t*>(p);
  size_ = size;
  kind_ = Kind::kNormal;
  return true;
}

void HugePageRegion::Populate() { Populate(0, size_); }

void HugePageRegion::Populate(size_t from, size_t to) {
  to = std::min(to, size_);
  if (kind_ == Kind::kNone || from >= to) return;
#ifdef MADV_POPULATE_WRITE
  // A 2 MB page at a time: the kernel holds the process's memory map
  // lock while it backs pages, and any mmap or munmap of another thread
  // (Python's allocator makes them) waits for it. Backing fresh memory
  // can be slow (a VM's host backs it too: 30 MB took 85-275 ms here),
  // and a PopulateAhead thread backing a region in one call stalled the
  // encoding thread for all of that.
  // (Chunks end on the region's 2 MB boundaries; `from` is rounded down to
  // its 4 KB page, as madvise wants.)
  bool populated = true;
  for (size_t at = from / 4096 * 4096; at < to && populated;) {
    const size_t end = std::min(to, (at / kHuge + 1) * kHuge);
    populated = madvise(data_ + at, end - at, MADV_POPULATE_WRITE) == 0;
    at = end;
  }
  if (populated) return;
#endif
  // Older kernels: one write per page, of the byte already there.
  volatile uint8_t* p = data_;
  for (size_t at = from; at < to; at = (at / 4096 + 1) * 4096) p[at] = p[at];
}

void MapAhead(std::string_view bytes) {
#ifdef MADV_POPULATE_READ
  if (bytes.empty()) return;
  static const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));  // madvise wants it aligned
  const auto begin = reinterpret_cast<uintptr_t>(bytes.data()) / page * page;
  const uintptr_t end = reinterpret_cast<uintptr_t>(bytes.data()) + bytes.size();
  madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);  // advice: a failure changes nothing
#else
  (void)bytes;
#endif
}

std::unique_ptr<HugePageRegion> CopyToHugePages(std::initializer_list<std::string_view*> views) {
  auto padded = [](size_t n) { return (n + 63) & ~size_t{63}; };
  size_t total = 0;
  for (const std::string_view* v : views) total += padded(v->size());
  auto region = std::make_unique<HugePageRegion>();
  if (total == 0 || !region->Allocate(total)) return nullptr;
  // A copy on 4 KB pages would cost its time and memory for no fewer TLB
  // misses than the views' own pages give.
  if (region->kind() == HugePageRegion::Kind::kNormal) return nullptr;
  char* at = reinterpret_cast<char*>(region->data());
  for (std::string_view* v : views) {
    if (v->empty()) continue;
    std::memcpy(at, v->data(), v->size());
    *v = std::string_view(at, v->size());
    at += padded(v->size());
  }
  return region;
}

namespace {

// Counts forks, in the child: a backing started before a fork has no
// thread in the child. (Compared where getpid() was, a system call that a
// cache asked for at every insert while its growth waited for a backing.)
std::atomic<uint64_t> g_forks{0};

uint64_t Forks() {
  static const bool registered = pthread_atfork(nullptr, nullptr, [] { g_forks.fetch_add(1); }) == 0;
  (void)registered;
  return g_forks.load(std::memory_order_relaxed);
}

}  // namespace

struct PopulateAhead::State {
  std::mutex mutex;
  std::condition_variable cv;
  std::atomic<bool> done{false};  // set under mutex (Wait's predicate), read by Done without it
  uint64_t forks = Forks();
};

bool PopulateAhead::Start(std::function<void()> work) {
  Wait();
  auto state = std::make_shared<State>();
  try {
    // Detached, the state shared: a forked child must not join a thread
    // it does not have.
    std::thread([work = std::move(work), state] {
      work();
      std::lock_guard<std::mutex> lock(state->mutex);
      state->done.store(true, std::memory_order_release);
      state->cv.notify_all();
    }).detach();
  } catch (const std::system_error&) {
    return false;
  }
  state_ = std::move(state);
  return true;
}

bool PopulateAhead::Done() const {
  return !state_ || state_->forks != Forks() || state_->done.load(std::memory_order_acquire);
}

void PopulateAhead::Wait() {
  if (!state_) return;
  if (state_->forks == Forks()) {
    std::unique_lock<std::mutex> lock(state_->mutex);
    state_->cv.wait(lock, [&] { return state_->done.load(std::memory_order_acquire); });
  }
  state_.reset();
}

}  // namespace mtok
