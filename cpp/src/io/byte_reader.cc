#include "io/byte_reader.h"

#include "common/utf8.h"

namespace mtok {

Status ReadUtf8(ByteReader& r, std::string_view* s, const char* field) {
  size_t at = r.pos();
  MTOK_RETURN_IF_ERROR(r.Str(s));
  size_t bad;
  if (!utf8::validate(*s, &bad))
    return r.ErrorAt(at + 2 + bad, std::string(field) + " is not valid UTF-8");
  return Status::Ok();
}

Status ReadUtf8List(ByteReader& r, std::vector<std::string_view>* out, const char* field) {
  uint32_t n;
  MTOK_RETURN_IF_ERROR(r.U32(&n));
  MTOK_RETURN_IF_ERROR(r.CheckArray(n, 2));
  out->reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    std::string_view s;
    MTOK_RETURN_IF_ERROR(ReadUtf8(r, &s, field));
    out->push_back(s);
  }
  return Status::Ok();
}

}  // namespace mtok
