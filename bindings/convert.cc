// The converter's native fast paths (src/mtok/convert/ calls them).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "mtok/convert.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

// The facts of a SentencePiece .model as a dict (with its model section),
// or None when the protobuf importer is to read the file.
nb::object SpModelFacts(nb::bytes data) {
  mtok::convert::SpModel m;
  bool ok;
  {
    nb::gil_scoped_release release;
    ok = mtok::convert::ConvertSpModel(std::string_view(data.c_str(), data.size()), &m);
  }
  if (!ok) return nb::none();
  nb::dict d;
  d["kind"] = m.kind;
  d["section"] = nb::bytes(m.section.data(), m.section.size());
  d["pieces"] = m.pieces;
  d["unk_id"] = m.unk_id;
  d["bos_id"] = m.bos_id;
  d["eos_id"] = m.eos_id;
  d["byte_fallback"] = m.byte_fallback;
  d["treat_whitespace_as_suffix"] = m.treat_whitespace_as_suffix;
  d["unk_surface"] = m.unk_surface;
  d["precompiled_charsmap"] = nb::bytes(m.precompiled_charsmap.data(), m.precompiled_charsmap.size());
  d["add_dummy_prefix"] = m.add_dummy_prefix;
  d["remove_extra_whitespaces"] = m.remove_extra_whitespaces;
  d["escape_whitespaces"] = m.escape_whitespaces;
  d["user_defined"] = m.user_defined;
  d["control"] = m.control;
  d["unk_piece"] = m.unk_piece;
  d["bos_piece"] = m.bos_piece;
  d["eos_piece"] = m.eos_piece;
  return d;
}

// The BPE model section of .tiktoken bytes, or None when the Python
// importer is to read the file.
nb::object TiktokenSection(nb::bytes data) {
  std::string section;
  uint32_t tokens = 0;
  bool ok;
  {
    nb::gil_scoped_release release;
    ok = mtok::convert::ConvertTiktokenRanks(std::string_view(data.c_str(), data.size()), &section, &tokens);
  }
  if (!ok) return nb::none();
  return nb::bytes(section.data(), section.size());
}

}  // namespace

void bind_convert(nb::module_& m) {
  m.def("hf_model_section", &HfModelSection, nb::arg("data"), nb::arg("lookups"),
        "tokenizer.json bytes -> (begin, end, type, model section, vocab ids of `lookups`), "
        "or None when the file is left to the Python importer.");
  m.def("sp_model_facts", &SpModelFacts, nb::arg("data"),
        "SentencePiece .model bytes -> dict of what the importer needs (with the model section), "
        "or None when the file is left to the protobuf importer.");
  m.def(
      "trim_heap",
      [] {
#if defined(__GLIBC__)
        malloc_trim(0);
#endif
      },
      "Returns the free heap a conversion leaves to the system (glibc keeps it otherwise).");
  m.def("tiktoken_model_section", &TiktokenSection, nb::arg("data"),
        ".tiktoken bytes -> the BPE model section, or None when the file is left to the Python importer.");
}
