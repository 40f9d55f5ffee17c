// mtok._native.EncodeConfig: truncation and padding settings of one Python
// Tokenizer (built once, then only read).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "py_tokenizer.h"

namespace nb = nanobind;
using mtok_py::EncodeConfig;

void bind_encode_config(nb::module_& m) {
  nb::class_<EncodeConfig>(m, "EncodeConfig", "Truncation and padding settings (internal).")
      .def(nb::init<>())
      .def("set_truncation",
           [](EncodeConfig& c, size_t max_length, size_t stride, int strategy, int direction) {
             c.truncation.enabled = true;
             c.truncation.max_length = max_length;
             c.truncation.stride = stride;
             c.truncation.strategy = static_cast<mtok::TruncationParams::Strategy>(strategy);
             c.truncation.direction = static_cast<mtok::Side>(direction);
           },
           nb::arg("max_length"), nb::arg("stride"), nb::arg("strategy"), nb::arg("direction"),
           "strategy: 0 longest_first, 1 only_first, 2 only_second; direction: 0 right, 1 left.")
      .def("set_padding",
           [](EncodeConfig& c, int direction, uint32_t pad_id, uint32_t pad_type_id,
              const std::string& pad_token, int64_t length, size_t pad_to_multiple_of) {
             mtok::PaddingParams& p = c.padding;
             p.enabled = true;
             p.direction = static_cast<mtok::Side>(direction);
             p.pad_id = pad_id;
             p.pad_type_id = pad_type_id;
             p.pad_token = pad_token;
             p.fixed = length >= 0;
             p.length = length >= 0 ? static_cast<size_t>(length) : 0;
             p.pad_to_multiple_of = pad_to_multiple_of;
           },
           nb::arg("direction"), nb::arg("pad_id"), nb::arg("pad_type_id"), nb::arg("pad_token"),
           nb::arg("length"), nb::arg("pad_to_multiple_of"),
           "length < 0 pads to the longest of a batch; pad_to_multiple_of 0 is off.")
      .def("set_split_special",
           [](EncodeConfig& c, std::vector<uint32_t> allowed_ids) {
             c.split_special = true;
             c.allowed_ids = std::move(allowed_ids);
           },
           nb::arg("allowed_ids"),
           "HF's encode_special_tokens: only the added tokens allowed_ids are matched.");
}
