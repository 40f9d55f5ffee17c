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
  // With `tags`, the tags too (see TagOf).
  template <typename KeyOf>
  void Build(uint32_t n, KeyOf key_of, bool distinct = false, bool tags = false) {
    size_t count = 0;
    for (uint32_t id = 0; id < n; ++id) count += key_of(id).data() != nullptr;
    owned_.assign(TableCapacity(count), kEmpty);
    slots_ = owned_.data();
    mask_ = owned_.size() - 1;
    owned_tags_.assign(tags ? owned_.size() : 0, 0);
    tags_ = tags ? owned_tags_.data() : nullptr;
    auto insert = [&](uint32_t id, uint64_t h) {
      for (size_t i = h & mask_;; i = (i + 1) & mask_) {
        if (owned_[i] == kEmpty) {
          owned_[i] = id;
          if (tags) owned_tags_[i] = TagOf(h);
          return;
        }
        if (!distinct && key_of(owned_[i]) == key_of(id)) return;  // a repeated key keeps its lowest id
      }
    };
    // Each insert waits until kAhead more keys are hashed, its slot
    // prefetched meanwhile (in id order still): in a large index every
    // insert missed the cache at its slot.
    constexpr uint32_t kAhead = 16;
    uint32_t ids[kAhead];
    uint64_t at[kAhead];  // hashes
    uint32_t head = 0, pending = 0;
    for (uint32_t id = 0; id < n; ++id) {
      std::string_view k = key_of(id);
      if (k.data() == nullptr) continue;
      const uint64_t h = HashBytes(k.data(), k.size());
      __builtin_prefetch(&owned_[h & mask_], 1);
      if (pending == kAhead) {
        insert(ids[head], at[head]);
        head = (head + 1) % kAhead;
        --pending;
      }
      const uint32_t tail = (head + pending) % kAhead;
      ids[tail] = id;
      at[tail] = h;
      ++pending;
    }
    for (; pending > 0; --pending, head = (head + 1) % kAhead) insert(ids[head], at[head]);
  }

  // Uses `capacity` mapped slots (a power of two, ids already validated).
  void Adopt(const uint32_t* slots, size_t capacity) {
    owned_.clear();
    owned_tags_.clear();
    slots_ = slots;
    mask_ = capacity - 1;
    tags_ = nullptr;
  }

  // Tags: a byte per slot, 0 for an empty one, else TagOf the hash of its
  // key. Find then reads a slot's key only when its tag matches: a key
  // that is absent (most lookups of whole pre-tokens) costs one read of a
  // table a quarter of the slots' size, instead of the slot, its key's
  // offsets and bytes, each a cache miss.
  static uint8_t TagOf(uint64_t hash) {
    const auto t = static_cast<uint8_t>(hash >> 56);
    return t != 0 ? t : 1;
  }
  // Uses `capacity()` mapped tags, which must hold a 0 (probes stop
  // there; other wrong tags change results, never memory safety).
  void AdoptTags(const uint8_t* tags) {
    owned_tags_.clear();
    tags_ = tags;
  }
  const uint8_t* tags() const { return tags_; }

  template <typename KeyOf>
  bool Find(std::string_view key, KeyOf key_of, uint32_t* id) const {
    if (slots_ == nullptr) return false;
    const uint64_t h = HashBytes(key.data(), key.size());
    if (tags_ != nullptr) {
      const uint8_t tag = TagOf(h);
      for (size_t i = h & mask_;; i = (i + 1) & mask_) {
        const uint8_t t = tags_[i];
        if (t == 0) return false;
        if (t == tag && key_of(slots_[i]) == key) {
          *id = slots_[i];
          return true;
        }
      }
    }
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
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
  std::vector<uint8_t> owned_tags_;
  const uint32_t* slots_ = nullptr;
  const uint8_t* tags_ = nullptr;  // null: Find reads every slot it probes
  size_t mask_ = 0;
};

}  // namespace mtok
