// Hashing for the flat open-addressing tables of the hot paths (no
// per-entry allocation, one probe sequence per lookup). HashBytes and Mix64
// are part of the .mtok format: tables stored in files use them.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace mtok {

inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// Hash of a byte string (FNV-1a over 8-byte words, then mixed).
inline uint64_t HashBytes(const char* p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ULL ^ n;
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, p, n);
  h = (h ^ tail) * 0x100000001b3ULL;
  return Mix64(h);
}

inline size_t TableCapacity(size_t n) {
  size_t cap = 16;
  while (cap < n * 2) cap <<= 1;
  return cap;
}

// u64 key -> two u32 values.
class PairMap {
 public:
  void Insert(uint64_t key, uint32_t a, uint32_t b) {
    if ((count_ + 1) * 2 > slots_.size()) Grow();
    for (size_t i = Mix64(key) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (!s.used) ++count_;
      if (!s.used || s.key == key) {
        s = Slot{key, a, b, true};
        return;
      }
    }
  }
  bool Find(uint64_t key, uint32_t* a, uint32_t* b) const {
    if (slots_.empty()) return false;
    for (size_t i = Mix64(key) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (!s.used) return false;
      if (s.key == key) {
        *a = s.a;
        *b = s.b;
        return true;
      }
    }
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t a = 0, b = 0;
    bool used = false;
  };
  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    count_ = 0;
    for (const Slot& s : old) {
      if (s.used) Insert(s.key, s.a, s.b);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0, count_ = 0;
};

}  // namespace mtok
