// The bytes of a .mtok file: a read-only memory map, or an owned copy.
// Everything a loaded tokenizer views (vocab strings, tables) points here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "mtok/export.h"
#include "mtok/status.h"

namespace mtok {

class MTOK_API Buffer {
 public:
  virtual ~Buffer() = default;
  virtual const uint8_t* data() const = 0;
  virtual size_t size() const = 0;

  static Status MapFile(const std::string& path, std::shared_ptr<const Buffer>* out);
  static std::shared_ptr<const Buffer> Copy(const void* data, size_t size);
};

}  // namespace mtok
