// BPE merge lookup: (left id, right id) -> (rank, merged id) in an
// open-addressing table whose slot layout is also the PHSH file section, so
// it is built once at export and adopted in place at load.
#pragma once
#include <cstdint>
#include <vector>

#include "common/flat_hash.h"

namespace mtok {

class PairIndex {
 public:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  struct Slot {
    uint32_t left, right, rank, merged;
  };
  static_assert(sizeof(Slot) == 16, "slot layout is part of the file format");

  void Build(size_t n) {
    owned_.assign(Capacity(n), Slot{kEmpty, 0, 0, 0});
    slots_ = owned_.data();
    mask_ = owned_.size() - 1;
  }
  // Later inserts of the same pair win (HF keeps the last rank of a pair).
  void Insert(uint32_t left, uint32_t right, uint32_t rank, uint32_t merged) {
    for (size_t i = Hash(left, right) & mask_;; i = (i + 1) & mask_) {
      Slot& s = owned_[i];
      if (s.left == kEmpty || (s.left == left && s.right == right)) {
        s = Slot{left, right, rank, merged};
        return;
      }
    }
  }
  // Uses mapped slots; a merged id >= id_limit reads as "no merge".
  void Adopt(const Slot* slots, size_t capacity, uint32_t id_limit) {
    owned_.clear();
    slots_ = slots;
    mask_ = capacity - 1;
    id_limit_ = id_limit;
  }
  bool HasFreeSlot() const {
    for (size_t i = 0; i < capacity(); ++i) {
      if (slots_[i].left == kEmpty) return true;
    }
    return false;
  }
  bool Find(uint32_t left, uint32_t right, uint32_t* rank, uint32_t* merged) const {
    if (slots_ == nullptr) return false;
    for (size_t i = Hash(left, right) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.left == kEmpty) return false;
      if (s.left == left && s.right == right) {
        if (s.merged >= id_limit_) return false;
        *rank = s.rank;
        *merged = s.merged;
        return true;
      }
    }
  }
  // Starts loading the slot a Find of the pair probes first.
  void Prefetch(uint32_t left, uint32_t right) const {
    if (slots_ != nullptr) __builtin_prefetch(&slots_[Hash(left, right) & mask_]);
  }
  const Slot* slots() const { return slots_; }
  size_t capacity() const { return slots_ ? mask_ + 1 : 0; }

 private:
  // At most 5/8 full, denser than other tables: the lookups of first-seen
  // words miss the CPU caches, and a smaller table waits less per miss
  // (llama3: 8 MB at 0.55 full instead of 16 MB at 0.27).
  static size_t Capacity(size_t n) {
    size_t cap = 16;
    while (cap * 5 < n * 8) cap <<= 1;
    return cap;
  }
  static uint64_t Hash(uint32_t left, uint32_t right) {
    return Mix64((uint64_t(left) << 32) | right);
  }
  std::vector<Slot> owned_;
  const Slot* slots_ = nullptr;
  size_t mask_ = 0;
  uint32_t id_limit_ = 0xFFFFFFFFu;
};

}  // namespace mtok
