// Test-only hooks: expose core units (regex, normalization, unicode tables)
// so pytest can compare them with reference implementations.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

// Each unit adds its own hooks in bindings/testing_<unit>.cc.
void bind_testing_unicode(nb::module_& m);
void bind_testing_regex(nb::module_& m);
void bind_testing_norm(nb::module_& m);
void bind_testing_codes(nb::module_& m);
void bind_testing_scanner(nb::module_& m);

void bind_testing(nb::module_& m) {
  bind_testing_unicode(m);
  bind_testing_regex(m);
  bind_testing_norm(m);
  bind_testing_codes(m);
  bind_testing_scanner(m);
}
