// Test hooks for common/unicode_norm: normalize and lowercase Python strings
// so pytest can compare them with HF tokenizers' normalizers.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/unicode_norm.h"
#include "common/utf8.h"

namespace nb = nanobind;
namespace uni = mtok::unicode;

namespace {

std::u32string decode(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    int len = 1;
    out.push_back(mtok::utf8::decode(s, i, &len));
    i += len;
  }
  return out;
}

std::string encode(const std::u32string& s) {
  std::string out;
  for (char32_t cp : s) mtok::utf8::append(out, cp);
  return out;
}

uni::NormForm parse_form(std::string_view form) {
  if (form == "NFC") return uni::NormForm::NFC;
  if (form == "NFD") return uni::NormForm::NFD;
  if (form == "NFKC") return uni::NormForm::NFKC;
  if (form == "NFKD") return uni::NormForm::NFKD;
  throw std::invalid_argument("form must be NFC, NFD, NFKC or NFKD");
}

}  // namespace

void bind_testing_norm(nb::module_& m) {
  m.def("normalize", [](std::string_view form, std::string_view text) {
    std::u32string out;
    uni::normalize(parse_form(form), decode(text), &out, nullptr);
    return encode(out);
  });
  m.def("normalize_with_src", [](std::string_view form, std::string_view text) {
    std::u32string out;
    std::vector<uint32_t> src;
    uni::normalize(parse_form(form), decode(text), &out, &src);
    return std::make_pair(encode(out), src);
  });
  m.def("to_lower", [](std::string_view text) {
    std::u32string out;
    uni::to_lower(decode(text), &out, nullptr);
    return encode(out);
  });
  m.def("combining_class", [](uint32_t cp) { return uni::combining_class(cp); });
  m.def("is_nfc_safe", [](uint32_t cp) { return uni::is_nfc_safe(cp); });
  m.def("first_nfc_unsafe", [](nb::bytes text, size_t from) {
    return uni::first_nfc_unsafe(std::string_view(text.c_str(), text.size()), from);
  });
}
