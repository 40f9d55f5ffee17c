// The converter's native fast paths (src/mtok/convert/ calls them).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "mtok/convert.h"

namespace nb = nanobind;

namespace {

// (begin, end, type, section, looked_up ids) of tokenizer.json bytes, or
// None when the Python importer is to read the file.
nb::object HfModelSection(nb::bytes data, const std::vector<std::string>& lookups) {
  mtok::convert::HfModel model;
  bool ok;
  {
    nb::gil_scoped_release release;
    ok = mtok::convert::ConvertHfModel(std::string_view(data.c_str(), data.size()), lookups, &model);
  }
  if (!ok) return nb::none();
  nb::list ids;
  for (int64_t id : model.looked_up) ids.append(id < 0 ? nb::object(nb::none()) : nb::object(nb::int_(id)));
  return nb::make_tuple(model.begin, model.end, model.type,
                        nb::bytes(model.section.data(), model.section.size()), ids);
}

}  // namespace

void bind_convert(nb::module_& m) {
  m.def("hf_model_section", &HfModelSection, nb::arg("data"), nb::arg("lookups"),
        "tokenizer.json bytes -> (begin, end, type, model section, vocab ids of `lookups`), "
        "or None when the file is left to the Python importer.");
}
