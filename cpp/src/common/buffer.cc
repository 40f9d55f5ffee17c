#include "mtok/buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <new>

namespace mtok {
namespace {

class MappedBuffer : public Buffer {
 public:
  MappedBuffer(void* addr, size_t size) : addr_(addr), size_(size) {}
  ~MappedBuffer() override {
    if (addr_ != nullptr) munmap(addr_, size_);
  }
  const uint8_t* data() const override { return static_cast<const uint8_t*>(addr_); }
  size_t size() const override { return size_; }

 private:
  void* addr_;
  size_t size_;
};

// 64-byte aligned, like a mapping's start, so sections that hold cache
// lines (UTRI) stay aligned.
class OwnedBuffer : public Buffer {
 public:
  OwnedBuffer(const void* data, size_t size)
      : bytes_(static_cast<uint8_t*>(::operator new(size ? size : 1, kAlign))), size_(size) {
    if (size) std::memcpy(bytes_.get(), data, size);
  }
  const uint8_t* data() const override { return bytes_.get(); }
  size_t size() const override { return size_; }

 private:
  static constexpr std::align_val_t kAlign{64};
  struct Free {
    void operator()(uint8_t* p) const { ::operator delete(p, kAlign); }
  };
  std::unique_ptr<uint8_t, Free> bytes_;
  size_t size_;
};

}  // namespace

Status Buffer::MapFile(const std::string& path, std::shared_ptr<const Buffer>* out) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return FormatError(path + ": cannot open: " + std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return FormatError(path + ": cannot stat: " + std::strerror(e));
  }
  size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) {
    close(fd);
    *out = Copy("", 0);
    return Status::Ok();
  }
  void* addr = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  close(fd);
  if (addr == MAP_FAILED) return FormatError(path + ": cannot map: " + std::strerror(e));
  *out = std::make_shared<MappedBuffer>(addr, size);
  return Status::Ok();
}

std::shared_ptr<const Buffer> Buffer::Copy(const void* data, size_t size) {
  return std::make_shared<OwnedBuffer>(data, size);
}

}  // namespace mtok
