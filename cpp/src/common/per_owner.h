// Per-thread state kept for a few owners (tokenizer models, routes): each
// thread has its own, so encodes share nothing, and a thread keeps the
// last few owners' so alternating between tokenizers does not start cold.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

namespace mtok {

// A serial for a new owner; never 0, so an empty entry matches no owner.
inline uint64_t NewOwnerSerial() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

// This thread's T for `owner`, made (value-initialized) on its first use
// by this thread; the oldest of kKept owners' is dropped for a new one.
// Not inlined: the callers would otherwise recompute the thread_locals'
// addresses (a call into the loader, in a shared library) at every use.
template <typename T, size_t kKept = 4>
[[gnu::noinline]] T& ForOwner(uint64_t owner) {
  thread_local std::array<std::pair<uint64_t, std::unique_ptr<T>>, kKept> kept;
  thread_local size_t next_victim = 0;
  for (auto& [key, value] : kept) {
    if (key == owner) return *value;
  }
  auto& slot = kept[next_victim];
  next_victim = (next_victim + 1) % kKept;
  slot.second = std::make_unique<T>();
  slot.first = owner;
  return *slot.second;
}

}  // namespace mtok
