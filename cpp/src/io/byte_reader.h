// Bounds-checked little-endian reader over the mapped file. Every read checks
// the remaining length first; errors name the section and the byte offset.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "mtok/status.h"

namespace mtok {

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  void set_section(const char* section) { section_ = section; }
  const char* section() const { return section_; }
  size_t pos() const { return pos_; }
  size_t size() const { return size_; }
  size_t remaining() const { return size_ - pos_; }
  bool at_end() const { return pos_ == size_; }
  const uint8_t* data() const { return data_; }
  void seek(size_t pos) { pos_ = pos; }

  Status Error(const std::string& what) const { return ErrorAt(pos_, what); }
  Status ErrorAt(size_t offset, const std::string& what) const {
    return FormatError(std::string(section_) + " at byte " + std::to_string(offset) + ": " + what);
  }

  Status U8(uint8_t* v) { return Fixed(v, 1); }
  Status U16(uint16_t* v) { return Fixed(v, 2); }
  Status U32(uint32_t* v) { return Fixed(v, 4); }
  Status U64(uint64_t* v) { return Fixed(v, 8); }
  Status F64(double* v) { return Fixed(v, 8); }
  Status Bool(bool* v) {
    uint8_t b;
    MTOK_RETURN_IF_ERROR(U8(&b));
    if (b > 1) return ErrorAt(pos_ - 1, "flag byte is " + std::to_string(b) + ", expected 0 or 1");
    *v = b != 0;
    return Status::Ok();
  }

  // [u16 len][bytes] as a view into the mapped bytes (no copy).
  Status Str(std::string_view* s) {
    uint16_t n;
    MTOK_RETURN_IF_ERROR(U16(&n));
    return Bytes(n, s);
  }
  // [u32 len][bytes].
  Status LongStr(std::string_view* s) {
    uint32_t n;
    MTOK_RETURN_IF_ERROR(U32(&n));
    return Bytes(n, s);
  }
  Status Bytes(size_t n, std::string_view* s) {
    if (n > remaining())
      return Error("length " + std::to_string(n) + " runs past the end of the file (" +
                   std::to_string(remaining()) + " bytes left)");
    *s = std::string_view(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return Status::Ok();
  }
  // Checks that `count` records of `record_size` bytes fit, without overflow.
  Status CheckArray(uint64_t count, uint64_t record_size) const {
    if (record_size != 0 && count > remaining() / record_size)
      return Error(std::to_string(count) + " records of " + std::to_string(record_size) +
                   " bytes run past the end of the file");
    return Status::Ok();
  }

 private:
  template <typename T>
  Status Fixed(T* v, size_t n) {
    if (n > remaining()) return Error("unexpected end of file");
    std::memcpy(v, data_ + pos_, n);  // little-endian hosts only (checked in CMake)
    pos_ += n;
    return Status::Ok();
  }

  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  const char* section_ = "header";
};

// Reads [u16 len][bytes] and checks it is valid UTF-8 (text fields reach
// Python as str).
Status ReadUtf8(ByteReader& r, std::string_view* s, const char* field);
// Reads [u32 n] then n UTF-8 strings.
Status ReadUtf8List(ByteReader& r, std::vector<std::string_view>* out, const char* field);

}  // namespace mtok
