// Test hooks that count the instructions of a span of code under
// valgrind's callgrind, for tests that must tell linear from quadratic work
// without a clock (tests/hostile/test_worst_case_work.py). Outside valgrind
// the client requests do nothing; built without valgrind's headers, the
// hooks raise.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <stdexcept>
#include <string>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define MTOK_HAVE_CALLGRIND 1
#else
#define MTOK_HAVE_CALLGRIND 0
#endif

namespace nb = nanobind;

namespace {

void RequireCallgrind() {
#if !MTOK_HAVE_CALLGRIND
  throw std::runtime_error("mtok_testing was built without <valgrind/callgrind.h> (apt-get install valgrind)");
#else
  if (!RUNNING_ON_VALGRIND) throw std::runtime_error("not running under valgrind --tool=callgrind");
#endif
}

}  // namespace

void bind_testing_instructions(nb::module_& m) {
  // Run with --instr-atstart=no: the interpreter runs uninstrumented
  // outside the spans between count_start and count_stop, whose
  // instructions (on every thread) are dumped as a profile of their own,
  // whose description names `label`.
  m.def("count_start", [] {
    RequireCallgrind();
#if MTOK_HAVE_CALLGRIND
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
#endif
  });
  m.def("count_stop", [](const std::string& label) {
    RequireCallgrind();
#if MTOK_HAVE_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(label.c_str());
    CALLGRIND_STOP_INSTRUMENTATION;
#endif
  });
}
