// A token -> id vocab as the .mtok writer stores it (src/mtok/format/
// models.py sorted_vocab): entries sorted by token bytes, ids below 2^24 and
// used once, no token twice; with an index for the converters' lookups.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/flat_hash.h"
#include "common/sort_by_bytes.h"
#include "convert/sink.h"

namespace mtok::convert {

constexpr uint64_t kMaxTokenId = uint64_t{1} << 24;  // MAX_TOKEN_ID of the Python writer

// A token -> id vocab object: tokens in one arena, entries sorted by token,
// and an open-addressing index over them.
struct DictVocab {
  std::string arena;
  struct Entry { uint32_t offset, size, id; };
  std::vector<Entry> entries;
  // [hash's high 32 bits | entry index + 1]; 0 is empty. The hash bits
  // spare most probes a visit to the entry and its text (cache misses).
  std::vector<uint64_t> slots;
  size_t mask = 0;

  std::string_view Token(const Entry& e) const { return {arena.data() + e.offset, e.size}; }
  // The slot of t: where it is, or the empty slot where it would go.
  const uint64_t* Slot(std::string_view t, uint64_t* tag) const {
    uint64_t h = HashBytes(t.data(), t.size());
    *tag = h & ~uint64_t{0xFFFFFFFF};
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      uint64_t s = slots[i];
      if (s == 0 || ((s & ~uint64_t{0xFFFFFFFF}) == *tag && Token(entries[(s & 0xFFFFFFFF) - 1]) == t))
        return &slots[i];
    }
  }
  const uint32_t* Find(std::string_view t) const {
    if (slots.empty()) return nullptr;
    uint64_t tag, s = *Slot(t, &tag);
    return s ? &entries[(s & 0xFFFFFFFF) - 1].id : nullptr;
  }
  // Indexes the entries; false when a token is there twice.
  bool Index() {
    slots.assign(TableCapacity(entries.size()), 0);
    mask = slots.size() - 1;
    for (size_t k = 0; k < entries.size(); ++k) {
      uint64_t tag;
      uint64_t* s = const_cast<uint64_t*>(Slot(Token(entries[k]), &tag));
      if (*s) return false;
      *s = tag | (k + 1);
    }
    return true;
  }

  void Add(std::string_view token, uint32_t id) {
    entries.push_back({static_cast<uint32_t>(arena.size()), static_cast<uint32_t>(token.size()), id});
    arena += token;
  }
  // Checks ids (each once), sorts by token and (with `index`) indexes for
  // Find; false when an id or a token is there twice (Python's dict would
  // keep the last token: not taken).
  bool Finish(bool index = true) {
    std::vector<uint8_t> used(kMaxTokenId / 8, 0);
    for (const auto& e : entries) {
      if (e.id >= kMaxTokenId || (used[e.id >> 3] & (1u << (e.id & 7)))) return false;
      used[e.id >> 3] |= static_cast<uint8_t>(1u << (e.id & 7));
    }
    SortByBytes(&entries, [&](const Entry& e) { return Token(e); },
                [](const Entry& a, const Entry& b) { return a.id < b.id; });
    if (index) return Index();
    for (size_t k = 1; k < entries.size(); ++k) {
      if (Token(entries[k]) == Token(entries[k - 1])) return false;
    }
    return true;
  }
};

inline bool WriteDictEntries(const DictVocab& v, Sink* w) {
  for (const auto& e : v.entries) {
    if (!w->str(v.Token(e))) return false;
    w->u32(e.id);
  }
  return true;
}

}  // namespace mtok::convert
