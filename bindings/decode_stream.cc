// mtok.DecodeStream: incremental decoding with HF tokenizers' semantics.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "errors.h"
#include "mtok/decode_stream.h"
#include "py_tokenizer.h"

namespace nb = nanobind;

void bind_decode_stream(nb::module_& m) {
  nb::class_<mtok::DecodeStream>(m, "DecodeStream")
      .def(nb::init<bool, std::vector<uint32_t>>(), nb::arg("skip_special_tokens"),
           nb::arg("ids") = std::vector<uint32_t>())
      .def("step",
           [](mtok::DecodeStream& self, const mtok_py::PyTokenizer& tok,
              const std::vector<uint32_t>& ids) -> std::optional<std::string> {
             bool has_text;
             std::string text;
             // The GIL stays held: it is what keeps two threads out of one stream.
             mtok_py::Check(self.Step(*tok.tok, ids.data(), ids.size(), &has_text, &text));
             if (!has_text) return std::nullopt;
             return text;
           },
           nb::arg("tokenizer"), nb::arg("ids"),
           "Appends ids; returns the text they complete, or None.");
}
