// Test hooks for common/huge_pages: a region backed on a thread of its own
// (PopulateAhead) and a fork while that thread works.
#include <nanobind/nanobind.h>
#include <nanobind/stl/pair.h>
#include <sys/wait.h>
#include <unistd.h>

#include <new>
#include <stdexcept>
#include <utility>

#include "common/huge_pages.h"

namespace nb = nanobind;

void bind_testing_memory(nb::module_& m) {
  // Maps `mb` MB, starts backing them on another thread and forks at once.
  // The child waits for the backing (it has no such thread: Wait must
  // return at once), checks the region reads as zeros and writes to it, and
  // exits 0, or is killed by SIGALRM after 20 s. Returns the child's wait
  // status and whether the parent's own Wait then left every page zero.
  m.def("populate_ahead_fork", [](size_t mb) {
    mtok::HugePageRegion region;
    if (!region.Allocate(mb << 20)) throw std::bad_alloc();
    mtok::PopulateAhead ahead;
    if (!ahead.Start([&region] { region.Populate(); })) throw std::runtime_error("no thread for PopulateAhead");
    const pid_t pid = fork();
    if (pid == 0) {
      alarm(20);
      ahead.Wait();
      bool zero = true;
      for (size_t at = 0; at < (mb << 20); at += 4096) zero = zero && region.data()[at] == 0;
      region.data()[0] = 1;
      _exit(zero ? 0 : 3);
    }
    int status = -1;
    {
      nb::gil_scoped_release unlocked;
      if (pid > 0) waitpid(pid, &status, 0);
      ahead.Wait();
    }
    bool zero = true;
    for (size_t at = 0; at < (mb << 20); at += 4096) zero = zero && region.data()[at] == 0;
    return std::make_pair(status, zero);
  });
}
