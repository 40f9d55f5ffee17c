// Exposes BitCount (common/bit_count.h) for tests/unit/test_bit_count.py.
#include <nanobind/nanobind.h>

#include <cstdint>

#include "common/bit_count.h"

namespace nb = nanobind;

void bind_testing_bits(nb::module_& m) {
  m.def("bit_count", [](uint64_t x) { return mtok::BitCount(x); });
}
