// Memory helpers the core and its language bindings share.
#pragma once
#include <cstddef>
#include <cstdint>

namespace mtok {

// Per-thread scratch buffers keep their capacity between calls, so a warm
// encode allocates nothing. One that grew for a huge input is given back
// instead of being held by the thread for good.
constexpr size_t kScratchKeepBytes = size_t{4} << 20;

template <typename Buffer>
void TrimScratch(Buffer& b) {
  if (b.capacity() * sizeof(*b.data()) > kScratchKeepBytes) Buffer().swap(b);
}

// Read-mostly memory on 2 MB pages for large tables walked at random (the
// Unigram trie, an id table): one TLB entry then covers 512 times more of
// the table. Tries, in order: MAP_HUGETLB from the kernel's reserved pool,
// an anonymous 2 MB-aligned region with madvise(MADV_HUGEPAGE), then
// ordinary pages. kind() says which one was used.
class HugePageRegion {
 public:
  enum class Kind { kNone, kHugeTlb, kTransparent, kNormal };

  HugePageRegion() = default;
  HugePageRegion(const HugePageRegion&) = delete;
  HugePageRegion& operator=(const HugePageRegion&) = delete;
  ~HugePageRegion();

  // Allocates `size` bytes (zeroed). False when even ordinary pages fail.
  // With `huge` false (or MTOK_HUGE_PAGES=0), ordinary pages only
  // (madvise(MADV_NOHUGEPAGE), so also where the kernel's THP mode is
  // "always"): each is backed when first written, where a 2 MB page is
  // cleared (and resident) whole at its first.
  bool Allocate(size_t size, bool huge = true);
  // Unmaps the region (then Allocate may be called again).
  void Release();
  uint8_t* data() const { return data_; }
  Kind kind() const { return kind_; }
  // Has the kernel back the whole region now (clearing its pages), so that
  // its first use does not wait for it; contents are kept.
  void Populate();
  // The same for bytes [from, to) of it (clipped to the region).
  void Populate(size_t from, size_t to);
  static const char* KindName(Kind k);

 private:
  uint8_t* data_ = nullptr;
  size_t size_ = 0;      // usable bytes from data_
  void* map_ = nullptr;  // what munmap releases
  size_t map_size_ = 0;
  Kind kind_ = Kind::kNone;
};

}  // namespace mtok
