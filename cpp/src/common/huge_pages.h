// Read-mostly memory on 2 MB pages for large lookup tables walked at
// random (HugePageRegion, in the public mtok/memory.h: the bindings' id
// table uses it too), and backing it ahead of use.
#pragma once
#include <functional>
#include <initializer_list>
#include <memory>
#include <string_view>

#include "mtok/memory.h"

namespace mtok {

// Copies the bytes of `views` into one new region (each copy 64-byte
// aligned) on 2 MB pages and points the views at their copies; null, with
// the views unchanged, when there is no memory for it or the region would
// be on 4 KB pages.
std::unique_ptr<HugePageRegion> CopyToHugePages(std::initializer_list<std::string_view*> views);

// Maps the pages of a read-only file mapping that hold `bytes` now
// (MADV_POPULATE_READ), so that the first reads of a table read in place
// at random do not fault a page at a time. Advice only: nothing happens
// where the kernel lacks it, or for bytes not in a file mapping.
void MapAhead(std::string_view bytes);

// Backs a region (HugePageRegion::Populate) on a thread of its own, so that
// the thread that writes it next does not wait for the kernel to clear its
// pages, nor, in a VM, for the host to back them (2.5 ms a MB on some).
class PopulateAhead {
 public:
  PopulateAhead() = default;
  PopulateAhead(const PopulateAhead&) = delete;
  PopulateAhead& operator=(const PopulateAhead&) = delete;
  ~PopulateAhead() { Wait(); }

  // Starts `work` (backing regions, or parts of them, that must stay
  // mapped until Wait returns), after waiting for the work started before;
  // false, with nothing started, when no thread could be made.
  bool Start(std::function<void()> work);
  // Returns once the backing started last has finished. At once in a
  // forked child: the thread did not come with it.
  void Wait();
  // Whether Wait would return at once.
  bool Done() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace mtok
