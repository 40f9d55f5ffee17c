// The converter's native fast paths (src/mtok/convert/ calls them).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "mtok/convert.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace nb = nanobind;

namespace {

nb::bytes Bytes(std::string_view s) { return nb::bytes(s.data(), s.size()); }

// What read(text, &result) gives for `data`, read without the GIL, through
// to_python; None when it does not take the file (false): the Python
// importer then reads it.
template <typename Result, typename Read, typename ToPython>
nb::object ReadNative(nb::bytes data, Read read, ToPython to_python) {
  Result result;
  bool ok;
  {
    nb::gil_scoped_release release;
    ok = read(std::string_view(data.c_str(), data.size()), &result);
  }
  if (!ok) return nb::none();
  return to_python(result);
}

// (begin, end, type, section, looked_up ids) of tokenizer.json bytes.
nb::object HfModelSection(nb::bytes data, const std::vector<std::string>& lookups) {
  using mtok::convert::HfModel;
  return ReadNative<HfModel>(
      data, [&](std::string_view text, HfModel* m) { return mtok::convert::ConvertHfModel(text, lookups, m); },
      [](const HfModel& m) -> nb::object {
        nb::list ids;
        for (int64_t id : m.looked_up) ids.append(id < 0 ? nb::object(nb::none()) : nb::object(nb::int_(id)));
        return nb::make_tuple(m.begin, m.end, m.type, Bytes(m.section), ids);
      });
}

// The facts of a SentencePiece .model as a dict (with its model section).
nb::object SpModelFacts(nb::bytes data) {
  using mtok::convert::SpModel;
  return ReadNative<SpModel>(data, &mtok::convert::ConvertSpModel, [](const SpModel& m) -> nb::object {
    nb::dict d;
    d["kind"] = m.kind;
    d["section"] = Bytes(m.section);
    d["pieces"] = m.pieces;
    d["unk_id"] = m.unk_id;
    d["bos_id"] = m.bos_id;
    d["eos_id"] = m.eos_id;
    d["byte_fallback"] = m.byte_fallback;
    d["treat_whitespace_as_suffix"] = m.treat_whitespace_as_suffix;
    d["unk_surface"] = m.unk_surface;
    d["precompiled_charsmap"] = Bytes(m.precompiled_charsmap);
    d["add_dummy_prefix"] = m.add_dummy_prefix;
    d["remove_extra_whitespaces"] = m.remove_extra_whitespaces;
    d["escape_whitespaces"] = m.escape_whitespaces;
    d["user_defined"] = m.user_defined;
    d["control"] = m.control;
    d["unk_piece"] = m.unk_piece;
    d["bos_piece"] = m.bos_piece;
    d["eos_piece"] = m.eos_piece;
    return d;
  });
}

// The whole .mtok file of a SentencePiece .model, as a read-only
// memoryview of the native buffer: a copy into a bytes object would fault
// in the whole file's pages once more (a t5 entry is 4 MB).
nb::object SpModelFile(nb::bytes data) {
  return ReadNative<std::string>(data, &mtok::convert::SpModelFile, [](std::string& file) -> nb::object {
    auto* owned = new std::string(std::move(file));
    nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::string*>(p); });
    const size_t shape[1] = {owned->size()};
    return nb::cast(nb::ndarray<nb::memview, const uint8_t, nb::ndim<1>>(owned->data(), 1, shape, owner));
  });
}

// The BPE model section of .tiktoken bytes.
nb::object TiktokenSection(nb::bytes data) {
  return ReadNative<std::string>(
      data,
      [](std::string_view text, std::string* section) {
        uint32_t tokens = 0;
        return mtok::convert::ConvertTiktokenRanks(text, section, &tokens);
      },
      [](const std::string& section) -> nb::object { return Bytes(section); });
}

}  // namespace

void bind_convert(nb::module_& m) {
  m.def("hf_model_section", &HfModelSection, nb::arg("data"), nb::arg("lookups"),
        "tokenizer.json bytes -> (begin, end, type, model section, vocab ids of `lookups`), "
        "or None when the file is left to the Python importer.");
  m.def("sp_model_facts", &SpModelFacts, nb::arg("data"),
        "SentencePiece .model bytes -> dict of what the importer needs (with the model section), "
        "or None when the file is left to the protobuf importer.");
  m.def("sp_model_file", &SpModelFile, nb::arg("data"),
        "SentencePiece .model bytes -> the .mtok file (acceleration sections included) of its default spec, "
        "as a read-only memoryview, or None when the file is left to the protobuf importer.");
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
