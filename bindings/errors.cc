#include "errors.h"

namespace nb = nanobind;

namespace mtok_py {
namespace {

[[noreturn]] void RaiseAs(const char* cls_name, const std::string& message) {
  nb::object cls = nb::module_::import_("mtok.errors").attr(cls_name);
  PyErr_SetString(cls.ptr(), message.c_str());
  throw nb::python_error();
}

}  // namespace

void Raise(const mtok::Status& st) {
  switch (st.kind()) {
    case mtok::ErrorKind::kFormat:
    case mtok::ErrorKind::kUnsupported:
      RaiseAs("FormatError", st.message());
    case mtok::ErrorKind::kEncode:
      RaiseAs("EncodeError", st.message());
    default:
      RaiseAs("MtokError", st.message());
  }
}

void RaiseEncodeError(const std::string& message) { RaiseAs("EncodeError", message); }

}  // namespace mtok_py

void bind_errors(nb::module_&) {}
