#include "common/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mtok {
namespace {

// Bounds the pool whatever a caller asks for.
constexpr int kMaxWorkers = 256;

// One ParallelFor call. Participant p (the caller is 0) owns the items
// p, p + P, p + 2P, ... and claims them with its own atomic counter, then
// helps the others with theirs. A batch encoded again gives each thread the
// same documents, so its per-thread caches have seen their words, while
// the items still finish roughly in index order (the caller turns a done
// prefix into results as it goes).
struct Job {
  struct alignas(64) Stride {
    std::atomic<size_t> next{0};  // how many items of this class were claimed
  };
  const std::function<void(size_t)>* fn;
  size_t n;
  size_t parts;  // participants: the caller and the helpers asked for
  std::unique_ptr<Stride[]> strides;
  std::atomic<size_t> done{0};
  std::mutex mu;
  std::condition_variable finished;

  Job(const std::function<void(size_t)>* f, size_t count, size_t participants)
      : fn(f), n(count), parts(participants), strides(new Stride[participants]) {}

  // Claims and runs items until none are left, starting with class `home`.
  void Work(size_t home) {
    size_t ran = 0;
    for (size_t k = 0; k < parts; ++k) {
      const size_t c = (home + k) % parts;
      for (size_t j; (j = strides[c].next.fetch_add(1)) * parts + c < n; ++ran) (*fn)(j * parts + c);
    }
    if (ran > 0 && done.fetch_add(ran) + ran == n) {
      std::lock_guard<std::mutex> lock(mu);
      finished.notify_all();
    }
  }
};

}  // namespace

struct ThreadPool::Impl {
  std::mutex mu;
  std::condition_variable wake;
  std::deque<std::shared_ptr<Job>> queue;  // one entry per helper a job asked for
  std::vector<std::thread> workers;  // detached; kept to count them

  // `index`: this worker's place in the pool, so that it takes the same
  // share of every job.
  void Loop(size_t index) {
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mu);
        wake.wait(lock, [&] { return !queue.empty(); });
        job = std::move(queue.front());
        queue.pop_front();
      }
      job->Work(1 + index % (job->parts - 1));
    }
  }
};

ThreadPool& ThreadPool::Shared() {
  // Never destroyed: its detached workers park until the process exits.
  static ThreadPool* pool = [] {
    auto* p = new ThreadPool();
    p->impl_ = new Impl();
    return p;
  }();
  return *pool;
}

void ThreadPool::ParallelFor(size_t n, int threads, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  const int helpers = static_cast<int>(std::min<size_t>(
      n - 1, static_cast<size_t>(std::clamp(threads, 1, kMaxWorkers) - 1)));
  if (helpers == 0) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  auto job = std::make_shared<Job>(&fn, n, static_cast<size_t>(helpers) + 1);
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    while (static_cast<int>(impl_->workers.size()) < helpers) {
      const size_t index = impl_->workers.size();
      impl_->workers.emplace_back([impl = impl_, index] { impl->Loop(index); });
      impl_->workers.back().detach();
    }
    for (int k = 0; k < helpers; ++k) impl_->queue.push_back(job);
  }
  impl_->wake.notify_all();
  job->Work(0);
  std::unique_lock<std::mutex> lock(job->mu);
  job->finished.wait(lock, [&] { return job->done.load() == n; });
  // Queue entries a busy pool never reached now find no work and drop the job.
}

}  // namespace mtok
