// Unaligned little-endian loads: byte k at p is bits 8k..8k+7 of the word
// on any host, so keys and byte windows built from them compare the same
// everywhere.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace mtok {

template <typename T>
inline T LoadLe(const char* p) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>, "a 32- or 64-bit word");
  T w;
  std::memcpy(&w, p, sizeof(T));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  if constexpr (sizeof(T) == 8) w = __builtin_bswap64(w);
  else w = __builtin_bswap32(w);
#endif
  return w;
}

inline uint64_t LoadLe64(const char* p) { return LoadLe<uint64_t>(p); }
inline uint32_t LoadLe32(const char* p) { return LoadLe<uint32_t>(p); }

// The n (<= 8) bytes at p as a little-endian word, zero above, reading
// none past them (byte by byte: for the ends of buffers).
inline uint64_t LoadLeBytes(const char* p, size_t n) {
  uint64_t w = 0;
  for (size_t k = 0; k < n; ++k) w |= uint64_t{static_cast<unsigned char>(p[k])} << (8 * k);
  return w;
}

}  // namespace mtok
