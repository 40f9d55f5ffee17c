#include "format/section_readers.h"

namespace mtok {

Status CompileFileRegex(ByteReader& r, size_t offset, std::string_view pattern,
                        RegexDialect dialect, std::unique_ptr<Regex>* out) {
  Status st = Regex::Compile(pattern, dialect, out);
  if (!st.ok()) return r.ErrorAt(offset, "regex " + std::string(pattern) + ": " + st.message());
  return Status::Ok();
}

}  // namespace mtok
