#include "models/bpe/pair_memo.h"

#include <array>
#include <atomic>
#include <memory>

namespace mtok {

uint64_t PairMemo::NewOwner() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1);
}

void PairMemo::Clear() {
  for (Slot& s : slots_) s = Slot();
}

PairMemo& PairMemo::ForThread(uint64_t owner) {
  constexpr size_t kKept = 4;
  thread_local std::array<std::unique_ptr<PairMemo>, kKept> memos;
  thread_local size_t next_victim = 0;
  for (auto& memo : memos) {
    if (memo && memo->owner_ == owner) return *memo;
  }
  std::unique_ptr<PairMemo>& slot = memos[next_victim];
  next_victim = (next_victim + 1) % kKept;
  if (!slot) {
    slot = std::make_unique<PairMemo>();
  } else {
    slot->Clear();
  }
  slot->owner_ = owner;
  return *slot;
}

}  // namespace mtok
