// A token vocabulary whose strings are views into the mapped .mtok bytes.
// Lookup by string goes through an open-addressing index of ids, built as
// tokens are added or adopted from the file's VHSH section. With the VOFF
// section the id -> token table is adopted too, so loading parses nothing:
// every mapped offset and id is checked when it is used instead.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/flat_hash.h"
#include "common/hash_index.h"
#include "common/utf8.h"

namespace mtok {

class Vocab {
 public:
  // Adopts VOFF: `offsets[id]` is the file offset of id's [u16 len][bytes]
  // record inside [region_begin, region_end) of `base`, or kEmpty.
  void UseMappedRecords(const uint8_t* base, size_t region_begin, size_t region_end,
                        const uint32_t* offsets, uint32_t id_limit, uint32_t count) {
    records_ = {base, region_begin, region_end, offsets, id_limit};
    count_ = count;
  }

  // Adds token -> id. Returns false when the id is already used.
  bool Add(std::string_view token, uint32_t id) {
    if (id >= by_id_.size()) by_id_.resize(id + 1);
    if (by_id_[id].data() != nullptr) return false;
    by_id_[id] = token;
    ++count_;
    // Files list tokens in byte order: one above the last added is none of
    // them, and its insert needs no comparison (each costs cache misses).
    const bool fresh = ascending_ && (count_ == 1 || token > last_);
    ascending_ = fresh;
    last_ = token;
    if (mapped_) return true;
    if (fresh) {
      Defer(id);
    } else {
      EndAdding();
      Index(id, false);
    }
    return true;
  }
  // Add for a token that may be there already (records that are not in
  // byte order, so no sort saw a repeat): false, and nothing added, when
  // it is. One probe of the index, where Find then Add took two.
  bool AddIfNew(std::string_view token, uint32_t id) {
    if (mapped_ || (ascending_ && (count_ == 0 || token > last_))) {
      uint32_t first;  // above every token so far, or no built index to probe
      if (mapped_ && Find(token, &first)) return false;
      Add(token, id);
      return true;
    }
    if (id < by_id_.size() && by_id_[id].data() != nullptr) return true;  // as Add: the id keeps its token
    EndAdding();
    if ((count_ + 1) * 2 > slots_.size()) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    size_t i = HashBytes(token.data(), token.size()) & mask_;
    for (; slots_[i] != HashIndex::kEmpty; i = (i + 1) & mask_)
      if (by_id_[slots_[i]] == token) return false;
    if (id >= by_id_.size()) by_id_.resize(id + 1);
    by_id_[id] = token;
    ++count_;
    ascending_ = false;
    last_ = token;
    slots_[i] = id;
    return true;
  }
  // Inserts the ids Add deferred; readers call it after their last Add.
  void EndAdding() {
    for (uint32_t i = 0; i < pending_n_; ++i) {
      const Pending& p = pending_[(pending_head_ + i) % kPending];
      InsertFresh(p.id, p.slot);
    }
    pending_n_ = pending_head_ = 0;
  }
  // True while every token added came above the one before: they are distinct.
  bool ascending() const { return ascending_ && records_.offsets == nullptr; }
  void Reserve(size_t n) {
    by_id_.reserve(n);
    if (!mapped_ && slots_.size() < TableCapacity(n)) {
      EndAdding();
      Rehash(TableCapacity(n));
    }
  }
  // Uses an index from the file instead of building one; call before Add.
  // The caller validates the slots with ValidMappedIndex after adding.
  void UseMappedIndex(const uint32_t* slots, size_t capacity) {
    mapped_ = true;
    slots_.clear();
    index_.Adopt(slots, capacity);
  }
  // A probe ends only at a free slot, so a mapped index needs one. Slot
  // ids are checked when used (Token gives nothing for a bad id).
  bool ValidMappedIndex() const { return index_.HasFreeSlot(); }

  bool Find(std::string_view token, uint32_t* id) const {
    if (mapped_) return index_.Find(token, [this](uint32_t i) { return Token(i); }, id);
    for (uint32_t i = 0; i < pending_n_; ++i) {  // added, not inserted yet
      const uint32_t s = pending_[(pending_head_ + i) % kPending].id;
      if (by_id_[s] == token) {
        *id = s;
        return true;
      }
    }
    if (slots_.empty()) return false;
    for (size_t i = HashBytes(token.data(), token.size()) & mask_;; i = (i + 1) & mask_) {
      uint32_t s = slots_[i];
      if (s == HashIndex::kEmpty) return false;
      if (by_id_[s] == token) {
        *id = s;
        return true;
      }
    }
  }
  std::string_view Token(uint32_t id) const {
    if (records_.offsets != nullptr) return records_.Token(id);
    return id < by_id_.size() ? by_id_[id] : std::string_view();
  }
  // Token for output (IdToToken: decode, id_to_token), which must be UTF-8.
  // Mapped records are not parsed at load, so a damaged file's record may
  // not be: it then names no token. Parsed tokens were checked when read.
  std::string_view TokenText(uint32_t id) const {
    std::string_view t = Token(id);
    size_t bad;
    if (records_.offsets != nullptr && !utf8::validate(t, &bad)) return {};
    return t;
  }
  bool Has(uint32_t id) const { return Token(id).data() != nullptr; }
  // The n bytes that follow id's token in its mapped record, or null when
  // they would pass the vocab's end (or the vocab is not mapped).
  const uint8_t* RecordTail(uint32_t id, size_t n) const {
    if (records_.offsets == nullptr) return nullptr;
    const std::string_view t = records_.Token(id);
    if (t.data() == nullptr) return nullptr;
    const size_t at = static_cast<size_t>(reinterpret_cast<const uint8_t*>(t.data()) - records_.base) + t.size();
    return records_.end - at >= n ? records_.base + at : nullptr;
  }
  uint32_t size() const { return count_; }
  uint32_t id_limit() const {
    return records_.offsets != nullptr ? records_.id_limit : static_cast<uint32_t>(by_id_.size());
  }

  // The built index, for writing it into a file (empty when mapped, or
  // when a reader did not call EndAdding: then no index is written).
  const std::vector<uint32_t>& built_slots() const {
    static const std::vector<uint32_t> kNone;
    return pending_n_ == 0 ? slots_ : kNone;
  }

  // VOFF payload for a vocab parsed from the file at `base` (empty when the
  // vocab is mapped or has no tokens).
  // `tail`: bytes that follow a record's token (4 for [u32 id]).
  std::string RecordOffsetsPayload(const uint8_t* base, size_t tail) const {
    if (records_.offsets != nullptr || count_ == 0) return {};
    const char* b = reinterpret_cast<const char*>(base);
    // Written in place: a vector of the offsets, then copied, was one more
    // buffer of fresh memory (a 128k vocab: 512 KB).
    std::string out(8 + 4 * by_id_.size(), '\0');
    char* w = &out[8];
    size_t end = 0;
    for (size_t id = 0; id < by_id_.size(); ++id, w += 4) {
      uint32_t offset = HashIndex::kEmpty;
      if (by_id_[id].data() != nullptr) {
        offset = static_cast<uint32_t>(by_id_[id].data() - b - 2);
        // Each record is [u16 len][bytes] then `tail` bytes.
        end = std::max(end, static_cast<size_t>(by_id_[id].data() + by_id_[id].size() + tail - b));
      }
      std::memcpy(w, &offset, 4);
    }
    const uint32_t head[2] = {static_cast<uint32_t>(by_id_.size()), static_cast<uint32_t>(end)};
    std::memcpy(&out[0], head, 8);
    return out;
  }

 private:
  // A fresh token's insert waits until kPending more have been added, its
  // slot prefetched meanwhile: a large vocab's inserts each missed the
  // cache at their slot (o200k: 200k tokens, a 4 MB table).
  static constexpr uint32_t kPending = 16;
  struct Pending {
    uint32_t id;
    size_t slot;
  };
  void Defer(uint32_t id) {
    if ((count_ + 1) * 2 > slots_.size()) {
      EndAdding();
      Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    }
    const std::string_view k = by_id_[id];
    const size_t slot = HashBytes(k.data(), k.size()) & mask_;
    __builtin_prefetch(&slots_[slot], 1);
    if (pending_n_ == kPending) {
      const Pending& oldest = pending_[pending_head_];
      InsertFresh(oldest.id, oldest.slot);
      pending_head_ = (pending_head_ + 1) % kPending;
      --pending_n_;
    }
    pending_[(pending_head_ + pending_n_) % kPending] = {id, slot};
    ++pending_n_;
  }
  // Inserts an id whose token is in no slot, probing from `slot`.
  void InsertFresh(uint32_t id, size_t slot) {
    for (size_t i = slot;; i = (i + 1) & mask_) {
      if (slots_[i] == HashIndex::kEmpty) {
        slots_[i] = id;
        return;
      }
    }
  }
  // `fresh`: the token is known to be in no slot yet.
  void Index(uint32_t id, bool fresh) {
    if ((count_ + 1) * 2 > slots_.size()) Rehash(slots_.empty() ? 16 : slots_.size() * 2);
    std::string_view k = by_id_[id];
    for (size_t i = HashBytes(k.data(), k.size()) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == HashIndex::kEmpty) {
        slots_[i] = id;
        return;
      }
      if (!fresh && by_id_[slots_[i]] == k) return;  // a repeated token keeps its first id
    }
  }
  void Rehash(size_t capacity) {
    std::vector<uint32_t> old;
    old.swap(slots_);
    slots_.assign(capacity, HashIndex::kEmpty);
    mask_ = capacity - 1;
    for (uint32_t id : old) {
      if (id == HashIndex::kEmpty) continue;
      std::string_view k = by_id_[id];
      for (size_t i = HashBytes(k.data(), k.size()) & mask_;; i = (i + 1) & mask_) {
        if (slots_[i] == HashIndex::kEmpty) {
          slots_[i] = id;
          break;
        }
      }
    }
  }

  struct MappedRecords {
    const uint8_t* base = nullptr;
    size_t begin = 0, end = 0;
    const uint32_t* offsets = nullptr;
    uint32_t id_limit = 0;
    std::string_view Token(uint32_t id) const {
      if (id >= id_limit) return {};
      size_t off = offsets[id];
      if (off < begin || off > end || end - off < 2) return {};
      uint16_t len;
      std::memcpy(&len, base + off, 2);
      if (end - off - 2 < len) return {};
      return std::string_view(reinterpret_cast<const char*>(base + off + 2), len);
    }
  };

  MappedRecords records_;
  std::vector<std::string_view> by_id_;
  std::vector<uint32_t> slots_;  // built index
  size_t mask_ = 0;
  HashIndex index_;              // mapped index
  bool mapped_ = false;
  bool ascending_ = true;
  std::string_view last_;
  uint32_t count_ = 0;
  Pending pending_[kPending];
  uint32_t pending_head_ = 0, pending_n_ = 0;
};

}  // namespace mtok
