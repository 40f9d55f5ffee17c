// Test hook: the hand-written scanners, to compare with the regex engine.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include "pre_tokenizers/scanner.h"

namespace nb = nanobind;

void bind_testing_scanner(nb::module_& m) {
  m.def("scanner_find_all",
        [](std::string_view pattern, bool rust, std::string_view text) -> nb::object {
          auto s = mtok::Scanner::ForPattern(
              pattern, rust ? mtok::RegexDialect::kRust : mtok::RegexDialect::kOniguruma);
          if (!s) return nb::none();
          std::vector<std::pair<size_t, size_t>> out;
          s->FindAll(text, &out);
          return nb::cast(out);
        },
        nb::arg("pattern"), nb::arg("rust"), nb::arg("text"),
        "Byte spans of the scanner's matches, or None when the pattern has no scanner.");
}
