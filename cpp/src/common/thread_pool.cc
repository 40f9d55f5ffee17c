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

// One ParallelFor call: items are claimed with an atomic counter.
struct Job {
  const std::function<void(size_t)>* fn;
  size_t n;
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex mu;
  std::condition_variable finished;

  // Claims and runs items until none are left.
  void Work() {
    size_t ran = 0;
    for (size_t i; (i = next.fetch_add(1)) < n; ++ran) (*fn)(i);
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

  void Loop() {
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mu);
        wake.wait(lock, [&] { return !queue.empty(); });
        job = std::move(queue.front());
        queue.pop_front();
      }
      job->Work();
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
  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->n = n;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    while (static_cast<int>(impl_->workers.size()) < helpers) {
      impl_->workers.emplace_back([impl = impl_] { impl->Loop(); });
      impl_->workers.back().detach();
    }
    for (int k = 0; k < helpers; ++k) impl_->queue.push_back(job);
  }
  impl_->wake.notify_all();
  job->Work();
  std::unique_lock<std::mutex> lock(job->mu);
  job->finished.wait(lock, [&] { return job->done.load() == n; });
  // Queue entries a busy pool never reached now find no work and drop the job.
}

}  // namespace mtok
