// An open-addressing index of u32 ids keyed by byte strings stored
// elsewhere (a vocab). Its slots are either built at load or adopted in
// place from a .mtok acceleration section, so a large vocab loads without
// rebuilding anything. Slot layout and hash are part of the file format.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/flat_hash.h"

namespace mtok {

class HashIndex {
 public:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;

  // Builds the index of ids [0, n) for which key_of(id) has data. With
  // `distinct`, the caller knows no two keys are equal: inserts compare none.
  template <typename KeyOf>
  void Build(uint32_t n, KeyOf key_of, bool distinct = false) {
    size_t count = 0;
    for (uint32_t id = 0; id < n; ++id) count += key_of(id).data() != nullptr;
    owned_.assign(TableCapacity(count), kEmpty);
    slots_ = owned_.data();
    mask_ = owned_.size() - 1;
    auto insert = [&](uint32_t id, size_t i) {
      while (true) {
        if (owned_[i] == kEmpty) {
          owned_[i] = id;
          return;
        }
        if (!distinct && key_of(owned_[i]) == key_of(id)) return;  // a repeated key keeps its lowest id
        i = (i + 1) & mask_;
      }
    };
    // Each insert waits until kAhead more keys are hashed, its slot
    // prefetched meanwhile (in id order still): in a large index every
    // insert missed the cache at its slot.
    constexpr uint32_t kAhead = 16;
    uint32_t ids[kAhead];
    size_t at[kAhead];
    uint32_t head = 0, pending = 0;
    for (uint32_t id = 0; id < n; ++id) {
      std::string_view k = key_of(id);
      if (k.data() == nullptr) continue;
      const size_t i = HashBytes(k.data(), k.size()) & mask_;
      __builtin_prefetch(&owned_[i], 1);
      if (pending == kAhead) {
        insert(ids[head], at[head]);
        head = (head + 1) % kAhead;
        --pending;
      }
      const uint32_t tail = (head + pending) % kAhead;
      ids[tail] = id;
      at[tail] = i;
      ++pending;
    }
    for (; pending > 0; --pending, head = (head + 1) % kAhead) insert(ids[head], at[head]);
  }

  // Uses `capacity` mapped slots (a power of two, ids already validated).
  void Adopt(const uint32_t* slots, size_t capacity) {
    owned_.clear();
    slots_ = slots;
    mask_ = capacity - 1;
  }

  template <typename KeyOf>
  bool Find(std::string_view key, KeyOf key_of, uint32_t* id) const {
    if (slots_ == nullptr) return false;
    for (size_t i = HashBytes(key.data(), key.size()) & mask_;; i = (i + 1) & mask_) {
      uint32_t s = slots_[i];
      if (s == kEmpty) return false;
      if (key_of(s) == key) {
        *id = s;
        return true;
      }
    }
  }

  bool HasFreeSlot() const {
    for (size_t i = 0; i < capacity(); ++i) {
      if (slots_[i] == kEmpty) return true;
    }
    return false;
  }
  const uint32_t* slots() const { return slots_; }
  size_t capacity() const { return slots_ ? mask_ + 1 : 0; }

 private:
  std::vector<uint32_t> owned_;
  const uint32_t* slots_ = nullptr;
  size_t mask_ = 0;
};

}  // namespace mtok
