// The tagged sections of a file's extension trailer (docs/format.md,
// "Extension trailer"). The file reader checks their bounds; model readers
// look up their acceleration sections here.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace mtok {

struct SectionEntry {
  uint32_t tag, flags;
  uint64_t offset, size;
};

struct SectionTable {
  std::vector<SectionEntry> entries;  // bounds-checked, non-overlapping
  const uint8_t* base = nullptr;      // the file's bytes
  // Payload of the section with `tag`, if present.
  bool Find(uint32_t tag, std::string_view* payload) const {
    for (const SectionEntry& e : entries) {
      if (e.tag == tag) {
        *payload = std::string_view(reinterpret_cast<const char*>(base + e.offset), e.size);
        return true;
      }
    }
    return false;
  }
};

}  // namespace mtok
