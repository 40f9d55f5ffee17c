#include "io/slot_table.h"

#include <cstring>

namespace mtok {

Status ParseSlotTable(std::string_view payload, const char* tag, size_t record_words,
                      U32Slots* out) {
  auto fail = [&](const std::string& what) {
    return FormatError(std::string("extension section ") + tag + ": " + what);
  };
  if (payload.size() < 8) return fail("too short");
  if (reinterpret_cast<uintptr_t>(payload.data()) % 4 != 0) return fail("payload is not 4-byte aligned");
  uint32_t capacity;
  std::memcpy(&capacity, payload.data(), 4);
  if (capacity < 2 || (capacity & (capacity - 1)) != 0)
    return fail("capacity " + std::to_string(capacity) + " is not a power of two");
  if ((payload.size() - 8) / 4 / record_words != capacity || (payload.size() - 8) % (4 * record_words) != 0)
    return fail("size does not match capacity " + std::to_string(capacity));
  out->slots = reinterpret_cast<const uint32_t*>(payload.data() + 8);
  out->capacity = capacity;
  return Status::Ok();
}

std::string SlotTablePayload(const uint32_t* words, size_t capacity, size_t record_words) {
  std::string out(8 + capacity * record_words * 4, '\0');
  uint32_t cap = static_cast<uint32_t>(capacity);
  std::memcpy(&out[0], &cap, 4);
  std::memcpy(&out[8], words, capacity * record_words * 4);
  return out;
}

}  // namespace mtok
