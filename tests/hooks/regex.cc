// Test hooks for common/regex: match offsets, to compare with HF tokenizers
// (Oniguruma) and tiktoken (fancy-regex) in pytest.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/regex.h"
#include "errors.h"

namespace nb = nanobind;

namespace {

// dialect: "oniguruma" (HF tokenizer.json) or "rust" (tiktoken). Raises
// ValueError with the status message when the pattern does not compile.
std::unique_ptr<mtok::Regex> Compile(std::string_view pattern, std::string_view dialect) {
  mtok::RegexDialect d = mtok::RegexDialect::kOniguruma;
  if (dialect == "rust") {
    d = mtok::RegexDialect::kRust;
  } else if (dialect != "oniguruma") {
    throw std::invalid_argument("dialect must be 'oniguruma' or 'rust'");
  }
  std::unique_ptr<mtok::Regex> re;
  mtok::Status st = mtok::Regex::Compile(pattern, d, &re);
  if (!st.ok()) throw std::invalid_argument(st.message());
  return re;
}

// Byte offsets (begin, end) of every match; EncodeError over the budget.
std::vector<std::pair<size_t, size_t>> FindAll(const mtok::Regex& re, std::string_view text) {
  std::vector<std::pair<size_t, size_t>> out;
  mtok::Status st;
  {
    nb::gil_scoped_release release;
    st = re.FindAll(text, &out);
  }
  if (!st.ok()) mtok_py::Raise(st);
  return out;
}

}  // namespace

void bind_testing_regex(nb::module_& m) {
  nb::class_<mtok::Regex>(m, "Regex")
      .def_static("compile", &Compile, nb::arg("pattern"), nb::arg("dialect") = "oniguruma")
      .def("find_all", &FindAll, nb::arg("text"));
  m.def(
      "regex_find_all",
      [](std::string_view pattern, std::string_view text, std::string_view dialect) {
        return FindAll(*Compile(pattern, dialect), text);
      },
      nb::arg("pattern"), nb::arg("text"), nb::arg("dialect") = "oniguruma");
}
