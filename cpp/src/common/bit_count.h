// The number of set bits of a word, inline. A generic x86-64 build has no
// POPCNT instruction, and __builtin_popcountll there is a call into
// libgcc through the PLT, once per trie step of the Unigram encoder; this
// is a dozen inline operations instead (the instruction itself where the
// build targets it).
#pragma once
#include <cstdint>

namespace mtok {

inline unsigned BitCount(uint64_t x) {
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  return static_cast<unsigned>(__builtin_popcountll(x));
#else
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<unsigned>((x * 0x0101010101010101ULL) >> 56);
#endif
}

}  // namespace mtok
