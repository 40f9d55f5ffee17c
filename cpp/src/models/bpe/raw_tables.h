// Raw bytes of every token of a byte-level BPE vocab, and an index from raw
// bytes to ids: what ByteBpe looks up. Built at load, or adopted from the
// file's BRAW and BHSH sections.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/hash_index.h"
#include "mtok/status.h"

namespace mtok {

struct RawTables {
  const uint32_t* offsets = nullptr;  // count + 1 offsets into bytes
  const char* bytes = nullptr;
  uint32_t bytes_size = 0;
  uint32_t count = 0;                 // ids [0, count)
  HashIndex index;
  // The longest token starting with each byte: a longer piece is no token,
  // and needs no lookup.
  uint32_t longest[256] = {};
  std::vector<uint32_t> owned_offsets;
  std::string owned_bytes;

  bool empty() const { return offsets == nullptr; }
  // Mapped offsets are checked here, when used.
  std::string_view Token(uint32_t id) const {
    if (id >= count) return {};
    uint32_t b = offsets[id], e = offsets[id + 1];
    if (b > e || e > bytes_size) return {};
    return std::string_view(bytes + b, e - b);
  }
  bool Find(std::string_view key, uint32_t* id) const {
    return index.Find(key, [this](uint32_t i) { return Token(i); }, id);
  }
  // Find, answering "no" at once for keys longer than every token that
  // starts with their first byte (most whole pre-tokens of CJK text).
  bool FindPiece(std::string_view key, uint32_t* id) const {
    return !key.empty() && key.size() <= longest[static_cast<unsigned char>(key[0])] && Find(key, id);
  }
  // Fills `longest` from the offsets (after they are set).
  void IndexLengths();
};

// Validates and adopts BRAW ([u32 count][u32 0][(count + 1) x u32 offset][bytes]),
// BHSH (a slot table keyed by those bytes) for a vocab of `id_limit` ids,
// and BTAG (`tags`, optional: [u32 capacity][u32 0][capacity x u8], the
// index's HashIndex tags).
Status ParseRawTables(std::string_view raw, std::string_view index, std::string_view tags, uint32_t id_limit,
                      RawTables* out);

// BRAW payload of built tables.
std::string RawBytesPayload(const RawTables& t);
// BTAG payload of the tables' index (its tags, computed when it has none).
std::string RawTagsPayload(const RawTables& t);

}  // namespace mtok
