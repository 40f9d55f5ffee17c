// Read-mostly memory on 2 MB pages for large lookup tables walked at
// random (the Unigram trie): one TLB entry then covers 512 times more of
// the table. Tries, in order: MAP_HUGETLB from the kernel's reserved pool,
// an anonymous 2 MB-aligned region with madvise(MADV_HUGEPAGE), then
// ordinary pages. kind() says which one was used.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string_view>

namespace mtok {

class HugePageRegion {
 public:
  enum class Kind { kNone, kHugeTlb, kTransparent, kNormal };

  HugePageRegion() = default;
  HugePageRegion(const HugePageRegion&) = delete;
  HugePageRegion& operator=(const HugePageRegion&) = delete;
  ~HugePageRegion();

  // Allocates `size` bytes (zeroed). False when even ordinary pages fail.
  bool Allocate(size_t size);
  // Unmaps the region (then Allocate may be called again).
  void Release();
  uint8_t* data() const { return data_; }
  Kind kind() const { return kind_; }
  // Has the kernel back a region on 2 MB pages now (clearing them), so
  // that its first use does not wait for it; contents are kept. Does
  // nothing on ordinary pages, which are backed one at a time as touched.
  void Populate();
  static const char* KindName(Kind k);

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;      // usable bytes from data_
  void* map_ = nullptr;  // what munmap releases
  size_t map_size_ = 0;
  Kind kind_ = Kind::kNone;
};

// Copies the bytes of `views` into one new region (each copy 64-byte
// aligned) and points the views at their copies; null, with the views
// unchanged, when there is no memory for it.
std::unique_ptr<HugePageRegion> CopyToHugePages(std::initializer_list<std::string_view*> views);

}  // namespace mtok
