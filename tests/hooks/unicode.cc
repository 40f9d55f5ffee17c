// Test hooks for common/unicode: the generated tables, for comparison with
// the Unicode data and the reference regex engines in pytest.
#include <nanobind/nanobind.h>

#include <string>

#include "common/unicode.h"
#include "common/utf8.h"

namespace nb = nanobind;
namespace uni = mtok::unicode;

namespace {

constexpr const char* kCategoryNames[] = {
    "Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps",
    "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co"};

}  // namespace

void bind_testing_unicode(nb::module_& m) {
  m.def("unicode_version", [] { return uni::unicode_version(); });
  // utf8::validate: -1 when valid, else the offset of the first bad sequence.
  m.def("utf8_validate", [](nb::bytes b) {
    size_t bad = 0;
    return mtok::utf8::validate(std::string_view(b.c_str(), b.size()), &bad) ? -1 : static_cast<long>(bad);
  });
  m.def("category", [](uint32_t cp) { return kCategoryNames[static_cast<int>(uni::category(cp))]; });
  // All 0x110000 categories as one bytes object of Category values.
  m.def("category_bytes", [] {
    std::string out(0x110000, '\0');
    for (char32_t cp = 0; cp < 0x110000; ++cp) out[cp] = static_cast<char>(uni::category(cp));
    return nb::bytes(out.data(), out.size());
  });
  m.def("category_names", [] {
    nb::list names;
    for (const char* n : kCategoryNames) names.append(n);
    return names;
  });
  m.def("is_white_space", [](uint32_t cp) { return uni::is_white_space(cp); });
  m.def("is_word", [](uint32_t cp) { return uni::is_word(cp); });
  m.def("simple_fold", [](uint32_t cp) { return static_cast<uint32_t>(uni::simple_fold(cp)); });
  m.def("full_fold_multi", [](uint32_t cp) {
    char32_t out[3];
    int n = uni::full_fold_multi(cp, out);
    nb::list folded;
    for (int i = 0; i < n; ++i) folded.append(static_cast<uint32_t>(out[i]));
    return folded;
  });
}
