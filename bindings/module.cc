// The mtok._native extension module. Each bound object lives in its own file;
// this file only wires their registration functions together.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

void bind_errors(nb::module_& m);
void bind_tokenizer(nb::module_& m);
void bind_encoding(nb::module_& m);
void bind_encode_config(nb::module_& m);
void bind_decode_stream(nb::module_& m);
void bind_convert(nb::module_& m);
void bind_digest(nb::module_& m);

NB_MODULE(_native, m) {
  m.doc() = "mtok native core (internal; use the mtok package)";
  bind_errors(m);
  bind_encoding(m);
  bind_encode_config(m);
  bind_tokenizer(m);
  bind_decode_stream(m);
  bind_convert(m);
  bind_digest(m);
}
