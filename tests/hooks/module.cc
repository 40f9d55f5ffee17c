// mtok_testing: test-only hooks that expose core units (regex,
// normalization, unicode tables, scanners, type codes, token spans,
// memory backed ahead, instruction counts, bit counts) so pytest can
// compare them with reference implementations. Built with
// -DMTOK_TEST_HOOKS=ON (tests/hooks_module.py does it) and never installed:
// the product module, mtok._native, exports the product only.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

// Each unit adds its own hooks in tests/hooks/<unit>.cc.
void bind_testing_unicode(nb::module_& m);
void bind_testing_regex(nb::module_& m);
void bind_testing_norm(nb::module_& m);
void bind_testing_codes(nb::module_& m);
void bind_testing_scanner(nb::module_& m);
void bind_testing_token_spans(nb::module_& m);
void bind_testing_memory(nb::module_& m);
void bind_testing_instructions(nb::module_& m);
void bind_testing_bits(nb::module_& m);

NB_MODULE(mtok_testing, m) {
  m.doc() = "mtok core internals for the unit tests (not part of the package)";
  bind_testing_unicode(m);
  bind_testing_regex(m);
  bind_testing_norm(m);
  bind_testing_codes(m);
  bind_testing_scanner(m);
  bind_testing_token_spans(m);
  bind_testing_memory(m);
  bind_testing_instructions(m);
  bind_testing_bits(m);
}
