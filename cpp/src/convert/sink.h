// The native converters' output: little-endian values and length-prefixed
// strings appended to a string, as src/mtok/format/binary.py's ByteWriter
// writes them.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace mtok::convert {

struct Sink {
  std::string out;
  void u8(uint8_t v) { out.push_back(static_cast<char>(v)); }
  void u16(uint16_t v) { raw(&v, 2); }  // little-endian hosts
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void f64(double v) { raw(&v, 8); }
  void raw(const void* p, size_t n) { out.append(static_cast<const char*>(p), n); }
  // [u16 len][bytes]; false past 65535 bytes (the Python writer's error).
  bool str(std::string_view s) {
    if (s.size() > 0xFFFF) return false;
    u16(static_cast<uint16_t>(s.size()));
    out.append(s);
    return true;
  }
  // [u32 len][bytes]
  void long_str(std::string_view s) {
    u32(static_cast<uint32_t>(s.size()));
    out.append(s);
  }
};

}  // namespace mtok::convert
