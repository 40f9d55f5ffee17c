#include "common/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

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

// Where a woken worker runs. Linux on a KVM guest with 2 vCPUs, measured:
// a thread woken after more than about 20 ms asleep is queued on the CPU of
// the thread that woke it, and waits 2-3 ms for the load balancer while the
// caller works there, which halves the speed-up of a 3 ms batch. So the
// caller's CPU is taken out of a sleeping worker's affinity before it is
// woken (the kernel then places it on another CPU), and the worker puts its
// own affinity back once it runs. Elsewhere this does nothing.
class Placement {
 public:
#ifdef __linux__
  // Called by the worker thread when it starts: the CPUs it may use.
  void Init() {
    self_ = pthread_self();
    has_home_ = sched_getaffinity(0, sizeof home_, &home_) == 0;
  }

  // By the caller, with the worker asleep: keep it off `cpu`.
  void Avoid(int cpu) {
    if (!has_home_ || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &home_) || CPU_COUNT(&home_) < 2) return;
    cpu_set_t away = home_;
    CPU_CLR(cpu, &away);
    narrowed_ = pthread_setaffinity_np(self_, sizeof away, &away) == 0;
  }

  // By the worker, once running: its whole affinity again.
  void Restore() {
    if (narrowed_) sched_setaffinity(0, sizeof home_, &home_);
    narrowed_ = false;
  }

 private:
  pthread_t self_;
  cpu_set_t home_;
  bool has_home_ = false;
  bool narrowed_ = false;  // written by the caller and read by the worker, under the pool's mutex
#else
  void Init() {}
  void Avoid(int) {}
  void Restore() {}
#endif
};

// The caller's CPU, or -1 where that is unknown.
int CurrentCpu() {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

}  // namespace

struct ThreadPool::Impl {
  std::mutex mu;
  std::condition_variable wake;
  std::deque<std::shared_ptr<Job>> queue;  // one entry per helper a job asked for
  // One per worker thread (detached; they park until the process exits). A
  // deque: entries keep their address as the pool grows.
  std::deque<Placement> workers;

  // `index`: this worker's place in the pool, so that it takes the same
  // share of every job.
  void Loop(size_t index) {
    Placement* placement;
    {
      std::lock_guard<std::mutex> lock(mu);
      placement = &workers[index];
      placement->Init();
    }
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mu);
        // Affinity back on every wake-up (workers that find no entry too),
        // and before a job found without sleeping.
        for (placement->Restore(); queue.empty(); placement->Restore()) wake.wait(lock);
        job = std::move(queue.front());
        queue.pop_front();
      }
      job->Work(1 + index % (job->parts - 1));
    }
  }

  // Under mu: steers the sleeping workers off the caller's CPU.
  void AvoidCaller() {
    const int cpu = CurrentCpu();
    for (Placement& w : workers) w.Avoid(cpu);
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
      impl_->workers.emplace_back();
      std::thread([impl = impl_, index] { impl->Loop(index); }).detach();
    }
    impl_->AvoidCaller();
    for (int k = 0; k < helpers; ++k) impl_->queue.push_back(job);
  }
  impl_->wake.notify_all();
  job->Work(0);
  std::unique_lock<std::mutex> lock(job->mu);
  job->finished.wait(lock, [&] { return job->done.load() == n; });
  // Queue entries a busy pool never reached now find no work and drop the job.
}

}  // namespace mtok
