// A per-thread cache of pair lookups, (left id, right id) -> merge, for
// the merge loops: a long run repeats few pairs many times, and first-seen
// words of one script share most of their pairs. A hit is one load from
// L1/L2 instead of a hash probe into the large pair or token table. Keyed
// by owner, so a thread that alternates between tokenizers never reads
// another one's merges.
#pragma once
#include <cstdint>

#include "common/per_owner.h"

namespace mtok {

class PairMemo {
 public:
  static constexpr uint32_t kNoMerge = 0xFFFFFFFFu;

  // This thread's memo for `owner` (a NewOwnerSerial() of the model).
  static PairMemo& ForThread(uint64_t owner) { return ForOwner<PairMemo>(owner); }

  // rank/merged of the pair, from the memo or from lookup(rank, merged)
  // (then remembered, including "no merge").
  template <typename Lookup>
  bool Find(uint32_t a, uint32_t b, uint32_t* rank, uint32_t* merged, Lookup lookup) {
    Slot& s = slots_[Index(a, b)];
    if (s.a != a || s.b != b) {
      s.a = a;
      s.b = b;
      if (!lookup(&s.rank, &s.merged)) s.rank = kNoMerge;
    }
    *rank = s.rank;
    *merged = s.merged;
    return s.rank != kNoMerge;
  }

  // Starts loading the pair's slot, for a Find a little later.
  void Prefetch(uint32_t a, uint32_t b) const { __builtin_prefetch(&slots_[Index(a, b)]); }

 private:
  static constexpr int kBits = 14;  // 256 KB: fits L2
  struct Slot {
    uint32_t a = kNoMerge, b = kNoMerge, rank = kNoMerge, merged = 0;
  };
  static uint32_t Index(uint32_t a, uint32_t b) { return (a * 0x9E3779B1u + b * 0x85EBCA77u) >> (32 - kBits); }
  Slot slots_[1u << kBits];
};

}  // namespace mtok
