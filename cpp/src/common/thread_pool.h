// A persistent pool of worker threads shared by every tokenizer, for batch
// calls. The calling thread works too, so a call always makes progress even
// when the pool is busy with other callers' batches.
#pragma once
#include <cstddef>
#include <functional>

namespace mtok {

class ThreadPool {
 public:
  // The process-wide pool; workers are started on first use and kept.
  static ThreadPool& Shared();

  // Runs fn(i) for every i in [0, n) on up to `threads` threads (the caller
  // included) and returns when all have finished. fn must not throw.
  void ParallelFor(size_t n, int threads, const std::function<void(size_t)>& fn);

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

 private:
  ThreadPool() = default;
  struct Impl;
  Impl* impl_ = nullptr;
};

}  // namespace mtok
