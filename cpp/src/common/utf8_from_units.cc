// utf8::from_code_units: a string of fixed-width code units to UTF-8, in
// two passes over chunks of the string (each chunk's UTF-8 length, then
// its bytes at their offsets), both on the thread pool when it is long.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/thread_pool.h"
#include "mtok/utf8.h"

namespace mtok::utf8 {

namespace {

// Below this many units a string is converted on the calling thread.
constexpr size_t kParallelUnits = size_t{64} << 10;

constexpr size_t kNoBad = ~size_t{0};

// UTF-8 bytes of units [0, n); kNoBad in *bad or the index of the first
// unit that has no UTF-8. A loop of counts the compiler vectorizes.
template <typename Unit>
size_t Utf8Length(const Unit* u, size_t n, size_t* bad) {
  size_t extra = 0, invalid = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t c = u[i];
    extra += (c >= 0x80) + (c >= 0x800) + (c >= 0x10000);
    if constexpr (sizeof(Unit) > 1) invalid |= ((c - 0xD800u) < 0x800u) | (c > 0x10FFFFu);
  }
  *bad = kNoBad;
  if (invalid) {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t c = u[i];
      if ((c - 0xD800u) < 0x800u || c > 0x10FFFFu) {
        *bad = i;
        break;
      }
    }
  }
  return n + extra;
}

// Writes the UTF-8 of units [0, n), all encodable, at w.
template <typename Unit>
void WriteUtf8(const Unit* u, size_t n, char* w) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t c = u[i];
    if (c < 0x80) {
      *w++ = static_cast<char>(c);
    } else if (c < 0x800) {
      *w++ = static_cast<char>(0xC0 | c >> 6);
      *w++ = static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      *w++ = static_cast<char>(0xE0 | c >> 12);
      *w++ = static_cast<char>(0x80 | (c >> 6 & 0x3F));
      *w++ = static_cast<char>(0x80 | (c & 0x3F));
    } else {
      *w++ = static_cast<char>(0xF0 | c >> 18);
      *w++ = static_cast<char>(0x80 | (c >> 12 & 0x3F));
      *w++ = static_cast<char>(0x80 | (c >> 6 & 0x3F));
      *w++ = static_cast<char>(0x80 | (c & 0x3F));
    }
  }
}

template <typename Unit>
bool Convert(const Unit* units, size_t n, int threads, std::string* out, size_t* bad_index) {
  const size_t chunks = n >= kParallelUnits && threads > 1 ? static_cast<size_t>(threads) : 1;
  std::vector<size_t> begin(chunks + 1), bytes(chunks), bad(chunks);
  for (size_t k = 0; k <= chunks; ++k) begin[k] = n / chunks * k;
  begin[chunks] = n;
  auto each = [&](auto fn) {
    if (chunks == 1) return fn(0);
    ThreadPool::Shared().ParallelFor(chunks, threads, fn);
  };
  each([&](size_t k) { bytes[k] = Utf8Length(units + begin[k], begin[k + 1] - begin[k], &bad[k]); });
  size_t total = 0;
  for (size_t k = 0; k < chunks; ++k) {
    if (bad[k] != kNoBad) {
      *bad_index = begin[k] + bad[k];
      return false;
    }
    total += bytes[k];
  }
  const size_t at = out->size();
  out->resize(at + total);  // the only serial pass: the buffer's pages
  char* w = out->data() + at;
  std::vector<size_t> offset(chunks);
  for (size_t k = 0, o = 0; k < chunks; o += bytes[k++]) offset[k] = o;
  each([&](size_t k) { WriteUtf8(units + begin[k], begin[k + 1] - begin[k], w + offset[k]); });
  return true;
}

}  // namespace

bool from_code_units(const void* units, size_t n, int width, int threads, std::string* out,
                     size_t* bad_index) {
  switch (width) {
    case 1: return Convert(static_cast<const uint8_t*>(units), n, threads, out, bad_index);
    case 2: return Convert(static_cast<const uint16_t*>(units), n, threads, out, bad_index);
    case 4: return Convert(static_cast<const uint32_t*>(units), n, threads, out, bad_index);
    default: throw std::invalid_argument("utf8::from_code_units: width must be 1, 2 or 4");
  }
}

}  // namespace mtok::utf8
