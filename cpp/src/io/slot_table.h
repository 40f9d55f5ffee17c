// Acceleration sections (docs/format.md, "Acceleration sections"): tables
// the exporter precomputes so that loading is a bounds check, not a build.
// Each view below points into the file and is validated before use.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/byte_reader.h"

namespace mtok {

// [u32 capacity][u32 0][capacity x u32 slot]: a HashIndex.
struct U32Slots {
  const uint32_t* slots = nullptr;
  size_t capacity = 0;
};

// Parses a slot table payload; `record_words` u32 words per slot.
Status ParseSlotTable(std::string_view payload, const char* tag, size_t record_words,
                      U32Slots* out);

// Serializes a slot table.
std::string SlotTablePayload(const uint32_t* words, size_t capacity, size_t record_words);

}  // namespace mtok
