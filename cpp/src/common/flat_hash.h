// Open-addressing hash tables with flat storage, for the hot paths: no
// per-entry allocation, one probe sequence per lookup.
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

// Byte string -> u32 value. Keys live in one arena.
class BytesMap {
 public:
  void Reserve(size_t n) {
    slots_.assign(TableCapacity(n), Slot{});
    mask_ = slots_.size() - 1;
  }
  // Inserts; returns false when the key is present (first value kept).
  bool Insert(std::string_view key, uint32_t value) {
    if ((count_ + 1) * 2 > slots_.size()) Grow();
    uint64_t h = HashBytes(key.data(), key.size());
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.len == kEmpty) {
        s = Slot{h, static_cast<uint32_t>(arena_.size()), static_cast<uint32_t>(key.size()), value};
        arena_.append(key);
        ++count_;
        return true;
      }
      if (s.hash == h && Equal(s, key.data(), key.size())) return false;
    }
  }
  bool Find(const char* p, size_t n, uint32_t* value) const {
    if (slots_.empty()) return false;
    uint64_t h = HashBytes(p, n);
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.len == kEmpty) return false;
      if (s.hash == h && Equal(s, p, n)) {
        *value = s.value;
        return true;
      }
    }
  }
  size_t size() const { return count_; }

 private:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  struct Slot {
    uint64_t hash = 0;
    uint32_t offset = 0, len = kEmpty, value = 0;
  };
  bool Equal(const Slot& s, const char* p, size_t n) const {
    return s.len == n && std::memcmp(arena_.data() + s.offset, p, n) == 0;
  }
  void Grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.len == kEmpty) continue;
      for (size_t i = s.hash & mask_;; i = (i + 1) & mask_) {
        if (slots_[i].len == kEmpty) {
          slots_[i] = s;
          break;
        }
      }
    }
  }

  std::vector<Slot> slots_;
  std::string arena_;
  size_t mask_ = 0, count_ = 0;
};

// u64 key -> two u32 values.
class PairMap {
 public:
  void Reserve(size_t n) {
    slots_.assign(TableCapacity(n), Slot{});
    mask_ = slots_.size() - 1;
  }
  void Insert(uint64_t key, uint32_t a, uint32_t b) {
    for (size_t i = Mix64(key) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
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
  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

}  // namespace mtok
