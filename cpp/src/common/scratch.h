// Per-thread scratch buffers keep their capacity between calls, so a warm
// encode allocates nothing (TrimScratch, in the public mtok/memory.h, gives
// back one that grew for a huge input).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "mtok/memory.h"

namespace mtok {

// Bytes built in a hot loop: appends are inline (std::string's append and
// assign are calls into the library).
class ByteScratch {
 public:
  void clear() { size_ = 0; }
  void append(const char* p, size_t n) {
    if (n > cap_ - size_) Grow(size_ + n);
    std::memcpy(data_.get() + size_, p, n);
    size_ += n;
  }
  void append(std::string_view s) { append(s.data(), s.size()); }
  std::string_view view() const { return {data_.get(), size_}; }
  bool empty() const { return size_ == 0; }
  const char* data() const { return data_.get(); }
  size_t capacity() const { return cap_; }
  void swap(ByteScratch& o) {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(cap_, o.cap_);
  }

 private:
  void Grow(size_t need) {
    const size_t cap = std::max<size_t>({need, 2 * cap_, 64});
    std::unique_ptr<char[]> bigger(new char[cap]);
    if (size_) std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    cap_ = cap;
  }

  std::unique_ptr<char[]> data_;
  size_t size_ = 0, cap_ = 0;
};

}  // namespace mtok
