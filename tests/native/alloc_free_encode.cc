// Counts heap allocations while a tokenizer encodes warm text: the ids fast
// path must allocate nothing in steady state.
//
//   alloc_free_encode FILE.mtok TEXT_FILE [ENCODES]
//
// Encodes every line of TEXT_FILE twice to warm the per-thread caches and
// buffers, then ENCODES more times (cycling through the lines) with
// counting on, reusing one ids vector. Prints the count; exits 1 when it is
// not zero, 2 on bad arguments or a file that does not load.
//
// The binary defines malloc and friends itself, forwarding to glibc's
// __libc_* entry points, so every allocation in the process (operator new
// included: libstdc++ calls malloc) goes through the counter. With
// ALLOC_FREE_ENCODE_ABORT=1 the first counted allocation aborts, for a
// backtrace in a debugger.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mtok/buffer.h"
#include "mtok/tokenizer.h"

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}

namespace {
std::atomic<bool> counting{false};
std::atomic<size_t> allocations{0};
bool abort_on_allocation = false;
inline void Count() {
  if (!counting.load(std::memory_order_relaxed)) return;
  if (abort_on_allocation) std::abort();
  allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* malloc(size_t n) {
  Count();
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t size) {
  Count();
  return __libc_calloc(n, size);
}
void* realloc(void* p, size_t n) {
  Count();
  return __libc_realloc(p, n);
}
void* memalign(size_t align, size_t n) {
  Count();
  return __libc_memalign(align, n);
}
void* aligned_alloc(size_t align, size_t n) {
  Count();
  return __libc_memalign(align, n);
}
int posix_memalign(void** out, size_t align, size_t n) {
  Count();
  void* p = __libc_memalign(align, n);
  if (p == nullptr) return 12;  // ENOMEM
  *out = p;
  return 0;
}
void free(void* p) { __libc_free(p); }
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s FILE.mtok TEXT_FILE [ENCODES]\n", argv[0]);
    return 2;
  }
  const long encodes = argc > 3 ? std::atol(argv[3]) : 1000;
  std::shared_ptr<const mtok::Buffer> bytes;
  std::unique_ptr<mtok::Tokenizer> tok;
  mtok::Status st = mtok::Buffer::MapFile(argv[1], &bytes);
  if (st.ok()) st = mtok::Tokenizer::Load(bytes, &tok);
  if (!st.ok()) {
    std::fprintf(stderr, "%s: %s\n", argv[1], st.message().c_str());
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::vector<std::string> texts;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) texts.push_back(line);
  }
  if (texts.empty() || encodes <= 0) {
    std::fprintf(stderr, "%s: no text lines, or ENCODES <= 0\n", argv[2]);
    return 2;
  }

  mtok::EncodeOptions opt;
  opt.add_special_tokens = true;
  std::vector<uint32_t> ids;
  size_t tokens = 0;
  for (int round = 0; round < 2; ++round) {
    for (const std::string& t : texts) {
      st = tok->EncodeIds(t, opt, &ids);
      if (!st.ok()) {
        std::fprintf(stderr, "encode failed: %s\n", st.message().c_str());
        return 2;
      }
    }
  }
  abort_on_allocation = std::getenv("ALLOC_FREE_ENCODE_ABORT") != nullptr;
  counting = true;
  for (long i = 0; i < encodes; ++i) {
    st = tok->EncodeIds(texts[static_cast<size_t>(i) % texts.size()], opt, &ids);
    tokens += ids.size();
  }
  counting = false;
  if (!st.ok()) {
    std::fprintf(stderr, "encode failed: %s\n", st.message().c_str());
    return 2;
  }
  std::printf("%zu allocations in %ld encodes (%zu tokens, %zu distinct texts)\n", allocations.load(),
              encodes, tokens, texts.size());
  return allocations.load() == 0 ? 0 : 1;
}
