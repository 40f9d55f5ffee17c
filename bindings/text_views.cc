#include <string>

#include "mtok/utf8.h"
#include "errors.h"
#include "py_tokenizer.h"

namespace nb = nanobind;

namespace mtok_py {

std::string_view ViewText(nb::handle text) {
  if (PyUnicode_Check(text.ptr())) {
    Py_ssize_t size;
    const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
    if (!data) throw nb::python_error();  // lone surrogates: UnicodeEncodeError
    return std::string_view(data, static_cast<size_t>(size));
  }
  if (PyBytes_Check(text.ptr())) {
    std::string_view s(PyBytes_AS_STRING(text.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(text.ptr())));
    size_t bad;
    if (!mtok::utf8::validate(s, &bad))
      RaiseEncodeError("input is not valid UTF-8 (first bad byte at offset " + std::to_string(bad) + ")");
    return s;
  }
  throw nb::type_error("text must be str or bytes");
}

TextViews ViewTexts(nb::handle seq) {
  TextViews out;
  nb::object fast = nb::steal(PySequence_Fast(seq.ptr(), "texts must be a sequence"));
  if (!fast.is_valid()) throw nb::python_error();
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast.ptr());
  out.views.reserve(static_cast<size_t>(n));
  out.keep.reserve(static_cast<size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    nb::handle item = PySequence_Fast_GET_ITEM(fast.ptr(), i);
    out.views.push_back(ViewText(item));
    out.keep.push_back(nb::borrow(item));
  }
  return out;
}

mtok::EncodeOptions MakeOptions(bool add_special, const EncodeConfig* config, bool details) {
  mtok::EncodeOptions o;
  o.add_special_tokens = add_special;
  o.details = details;
  if (config) {
    o.truncation = config->truncation;
    o.padding = config->padding;
    if (config->split_special) {
      o.added = mtok::EncodeOptions::Added::kAllowed;
      o.allowed_ids = config->allowed_ids;
    }
  }
  return o;
}

}  // namespace mtok_py
