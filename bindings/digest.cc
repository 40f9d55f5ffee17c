// Content digests for the on-disk cache of converted tokenizers
// (src/mtok/cache.py): its keys and its check of an entry's bytes.
//
// 64 bits: Hash64 of each 64 KB block, then of the blocks' hashes and
// the size, so a file is hashed through one small buffer and gives what
// its bytes in memory give. A key only finds an entry (see cache.py), so
// an accidental collision is what matters: about n^2 / 2^65 for n
// entries. Done here and not by a Python package: its import alone cost a
// first load from a small .model a third of sentencepiece's whole load.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;

namespace {

// Small enough to come from the heap, not a fresh mapping faulted in at each call.
constexpr size_t kBlock = 64 << 10;

inline uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
inline uint64_t Load64(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
constexpr uint64_t kP1 = 0x9E3779B185EBCA87ULL, kP2 = 0xC2B2AE3D27D4EB4FULL, kP3 = 0x165667B19E3779F9ULL;
inline uint64_t Round(uint64_t acc, uint64_t w) { return Rotl(acc + w * kP2, 31) * kP1; }

// A 64-bit hash of bytes: four independent lanes over 32-byte stripes, so
// the multiplies overlap instead of waiting on one serial chain as
// std::hash's do, then the tail and a final avalanche.
uint64_t Hash64(std::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
  uint64_t h;
  if (s.size() >= 32) {
    uint64_t a = kP1 + kP2, b = kP2, c = 0, d = 0 - kP1;
    for (; end - p >= 32; p += 32) {
      a = Round(a, Load64(p));
      b = Round(b, Load64(p + 8));
      c = Round(c, Load64(p + 16));
      d = Round(d, Load64(p + 24));
    }
    h = Rotl(a, 1) + Rotl(b, 7) + Rotl(c, 12) + Rotl(d, 18);
    for (uint64_t lane : {a, b, c, d}) h = (h ^ Round(0, lane)) * kP1 + kP3;
  } else {
    h = kP3;
  }
  h += s.size();
  for (; end - p >= 8; p += 8) h = Rotl(h ^ Round(0, Load64(p)), 27) * kP1 + kP3;
  for (; p < end; ++p) h = Rotl(h ^ (static_cast<uint8_t>(*p) * kP3), 11) * kP1;
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  return h ^ (h >> 32);
}

class Digest {
 public:
  void Block(std::string_view block) {
    const uint64_t h = Hash64(block);
    hashes_.append(reinterpret_cast<const char*>(&h), sizeof h);
    size_ += block.size();
  }
  std::string Hex() {
    hashes_.append(reinterpret_cast<const char*>(&size_), sizeof size_);
    char out[17];
    std::snprintf(out, sizeof out, "%016llx",
                  static_cast<unsigned long long>(Hash64(hashes_)));
    return out;
  }

 private:
  std::string hashes_;
  uint64_t size_ = 0;
};

// The digest of bytes in memory, cut into blocks as DigestFile reads them.
std::string DigestOf(std::string_view s) {
  Digest d;
  for (size_t at = 0; at < s.size(); at += kBlock) d.Block(s.substr(at, kBlock));
  return d.Hex();
}

// Any contiguous buffer: bytes, or the memoryview a native converter gives.
std::string DigestBuffer(nb::handle data) {
  Py_buffer view;
  if (PyObject_GetBuffer(data.ptr(), &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
  std::string out = DigestOf(std::string_view(static_cast<const char*>(view.buf), static_cast<size_t>(view.len)));
  PyBuffer_Release(&view);
  return out;
}

// Reads with read(2) into one reused buffer: not mapped, as a file
// truncated meanwhile would kill the process with SIGBUS.
std::string DigestFile(const std::string& path) {
  int fd;
  {
    nb::gil_scoped_release release;
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  }
  if (fd < 0) {
    PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
    throw nb::python_error();
  }
  Digest d;
  int error = 0;
  {
    nb::gil_scoped_release release;
    std::unique_ptr<char[]> buf(new char[kBlock]);
    for (bool eof = false; !eof && !error;) {
      size_t filled = 0;  // whole blocks, as DigestOf cuts them
      while (filled < kBlock) {
        const ssize_t n = ::read(fd, buf.get() + filled, kBlock - filled);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = errno;
        if (n <= 0) {
          eof = true;
          break;
        }
        filled += static_cast<size_t>(n);
      }
      if (filled) d.Block(std::string_view(buf.get(), filled));
    }
    ::close(fd);
  }
  if (error) {
    errno = error;
    PyErr_SetFromErrnoWithFilename(PyExc_OSError, path.c_str());
    throw nb::python_error();
  }
  return d.Hex();
}

// Appends "name:size:mtime_ns" of `path` (stat only), or "name:-" when it
// is absent.
void AppendStat(const std::string& path, std::string* out) {
  struct stat st;
  out->append(path.substr(path.rfind('/') + 1));
  if (::stat(path.c_str(), &st) != 0) {
    out->append(":-\n");
    return;
  }
  const long long mtime = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  out->append(":" + std::to_string(st.st_size) + ":" + std::to_string(mtime) + "\n");
}

// The files under `folder` (and its subfolders) whose names end in
// `suffix`, sorted.
void ListFiles(const std::string& folder, const std::string& suffix, std::vector<std::string>* out) {
  DIR* d = ::opendir(folder.c_str());
  if (d == nullptr) return;
  std::vector<std::string> names, dirs;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == ".." || name == "__pycache__") continue;
    const std::string path = folder + "/" + name;
    bool dir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {  // the entry's type is not in the listing
      struct stat st;
      if (::lstat(path.c_str(), &st) != 0) continue;
      dir = S_ISDIR(st.st_mode);
    }
    // Links to folders are not followed (as os.walk): a loop would never end.
    if (dir) dirs.push_back(path);
    else if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      names.push_back(path);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  std::sort(dirs.begin(), dirs.end());
  out->insert(out->end(), names.begin(), names.end());
  for (const std::string& sub : dirs) ListFiles(sub, suffix, out);
}

// digest() of the size and mtime of `files` and of every file ending in
// `suffix` under `folders`: what identifies code by its files without
// reading them. Done here: in Python the walk and the stats cost a small
// .model's first load a fifth of sentencepiece's whole load.
std::string FilesFingerprint(const std::string& tag, const std::vector<std::string>& files,
                             const std::vector<std::string>& folders, const std::string& suffix) {
  std::string text = tag + "\n";
  {
    nb::gil_scoped_release release;
    std::vector<std::string> all = files;
    for (const std::string& f : folders) ListFiles(f, suffix, &all);
    for (const std::string& path : all) AppendStat(path, &text);
  }
  return DigestOf(text);
}

}  // namespace

void bind_digest(nb::module_& m) {
  m.def("files_fingerprint", &FilesFingerprint, nb::arg("tag"), nb::arg("files"), nb::arg("folders"),
        nb::arg("suffix"),
        "digest() of `tag` and the size and mtime of `files` and of the files ending in `suffix` under "
        "`folders` (recursively, sorted; absent files count as absent).");
  m.def("digest", &DigestBuffer, nb::arg("data"), nb::sig("def digest(data: bytes | memoryview) -> str"),
        "The cache's 64-bit content digest of bytes, as 16 hex digits (digest_file's for a file of them).");
  m.def("digest_file", &DigestFile, nb::arg("path"),
        "digest() of a file's bytes, read through a 64 KB buffer; OSError naming the file when it cannot be read.");
}
