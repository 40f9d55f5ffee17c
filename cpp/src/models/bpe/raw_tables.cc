#include "models/bpe/raw_tables.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "io/slot_table.h"

namespace mtok {

Status ParseRawTables(std::string_view raw, std::string_view index, std::string_view tags, uint32_t id_limit,
                      RawTables* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section BRAW: " + what); };
  if (raw.size() < 8 || reinterpret_cast<uintptr_t>(raw.data()) % 4 != 0) return fail("too short or misaligned");
  uint32_t count;
  std::memcpy(&count, raw.data(), 4);
  if (count != id_limit)
    return fail("covers " + std::to_string(count) + " ids, the vocab has " + std::to_string(id_limit));
  uint64_t table = 8 + 4 * (uint64_t(count) + 1);
  if (table > raw.size()) return fail("offsets run past the section");
  uint64_t bytes_size = raw.size() - table;
  if (bytes_size > 0xFFFFFFFFu) return fail("too large");
  U32Slots slots;
  MTOK_RETURN_IF_ERROR(ParseSlotTable(index, "BHSH", 1, &slots));
  out->offsets = reinterpret_cast<const uint32_t*>(raw.data() + 8);
  out->bytes = raw.data() + table;
  out->bytes_size = static_cast<uint32_t>(bytes_size);
  out->count = count;
  out->index.Adopt(slots.slots, slots.capacity);
  if (!out->index.HasFreeSlot()) return FormatError("extension section BHSH: no free slot");
  if (!tags.empty()) {
    uint32_t head[2];
    if (tags.size() < 8) return FormatError("extension section BTAG: too short");
    std::memcpy(head, tags.data(), 8);
    if (head[0] != slots.capacity || head[1] != 0 || tags.size() - 8 != slots.capacity)
      return FormatError("extension section BTAG: size does not match BHSH's " + std::to_string(slots.capacity) +
                         " slots");
    const auto* t = reinterpret_cast<const uint8_t*>(tags.data() + 8);
    // A probe stops at a 0 tag: without one it would never end.
    if (std::memchr(t, 0, slots.capacity) == nullptr) return FormatError("extension section BTAG: no free slot");
    out->index.AdoptTags(t);
  }
  out->IndexLengths();
  return Status::Ok();
}

void RawTables::IndexLengths() {
  std::fill(std::begin(longest), std::end(longest), 0u);
  for (uint32_t id = 0; id < count; ++id) {
    const std::string_view t = Token(id);
    if (t.empty()) continue;
    uint32_t& l = longest[static_cast<unsigned char>(t[0])];
    l = std::max(l, static_cast<uint32_t>(t.size()));
  }
}

std::string RawTagsPayload(const RawTables& t) {
  const size_t capacity = t.index.capacity();
  const uint32_t head[2] = {static_cast<uint32_t>(capacity), 0};
  std::string out(reinterpret_cast<const char*>(head), 8);
  if (t.index.tags() != nullptr) {
    out.append(reinterpret_cast<const char*>(t.index.tags()), capacity);
    return out;
  }
  out.resize(8 + capacity, '\0');
  for (size_t i = 0; i < capacity; ++i) {
    const uint32_t id = t.index.slots()[i];
    if (id == HashIndex::kEmpty) continue;
    const std::string_view k = t.Token(id);
    out[8 + i] = static_cast<char>(HashIndex::TagOf(HashBytes(k.data(), k.size())));
  }
  return out;
}

std::string RawBytesPayload(const RawTables& t) {
  std::string out(8, '\0');
  std::memcpy(&out[0], &t.count, 4);
  out.append(reinterpret_cast<const char*>(t.offsets), 4 * (size_t(t.count) + 1));
  out.append(t.bytes, t.offsets[t.count]);
  return out;
}

}  // namespace mtok
