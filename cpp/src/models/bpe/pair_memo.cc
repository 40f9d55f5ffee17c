#include "models/bpe/pair_memo.h"

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
  thread_local std::unique_ptr<PairMemo> memo;
  if (!memo) memo = std::make_unique<PairMemo>();
  if (memo->owner_ != owner) {
    memo->Clear();
    memo->owner_ = owner;
  }
  return *memo;
}

}  // namespace mtok
