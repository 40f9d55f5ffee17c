// Merge keys of the merge loop for short words, and the smallest of them,
// which that loop asks for once per merge.
//
// A key packs rank << 8 | position, so the smallest key is the lowest
// rank, leftmost on ties, and names its own position: one pass, and no
// search for the index afterwards. Keys are offset by 2^23 so that, read
// as IEEE floats, they are positive normal numbers: those order like
// their bit patterns, and SSE's minps (one instruction for four keys,
// where SSE2 has no unsigned 32-bit integer minimum) finds the smallest.
// Normal numbers also keep the result exact under flush-to-zero and
// denormals-are-zero modes another library may have set.
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mtok::merge_key {

// Ranks from here on do not fit a key (real vocabularies stay far below).
constexpr uint32_t kRanks = 1u << 22;
// Positions a key can name (a word of up to this many symbols).
constexpr uint32_t kPositions = 1u << 8;
constexpr uint32_t kNone = 0x7F800000u;  // +infinity: above every key

inline uint32_t Make(uint32_t rank, uint32_t pos) { return ((rank << 8) | pos) + (1u << 23); }
inline uint32_t Position(uint32_t key) { return (key - (1u << 23)) & (kPositions - 1); }

constexpr size_t RoundUp4(size_t n) { return (n + 3) & ~size_t{3}; }

// min(keys[0, n)); keys must hold RoundUp4(n) values, those past n kNone.
inline uint32_t Lowest(const uint32_t* keys, size_t n) {
#if defined(__SSE2__)
  if (n > 4) {
    __m128 m = _mm_loadu_ps(reinterpret_cast<const float*>(keys));
    for (size_t k = 4; k < n; k += 4) m = _mm_min_ps(m, _mm_loadu_ps(reinterpret_cast<const float*>(keys + k)));
    m = _mm_min_ps(m, _mm_shuffle_ps(m, m, 0x4E));
    m = _mm_min_ps(m, _mm_shuffle_ps(m, m, 0xB1));
    return static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_castps_si128(m)));
  }
#endif
  uint32_t m = keys[0];
  for (size_t i = 1; i < n; ++i) m = keys[i] < m ? keys[i] : m;
  return m;
}

// Keys a word of up to this many symbols is scanned over (those past n
// kNone): a fixed 16, so the scan has no loop whose exit depends on the
// word's length (mispredicted about once a scan).
constexpr size_t kFixedScan = 16;

// min(keys[0, kFixedScan)).
inline uint32_t Lowest16(const uint32_t* keys) {
#if defined(__SSE2__)
  const float* f = reinterpret_cast<const float*>(keys);
  __m128 m = _mm_min_ps(_mm_min_ps(_mm_loadu_ps(f), _mm_loadu_ps(f + 4)),
                        _mm_min_ps(_mm_loadu_ps(f + 8), _mm_loadu_ps(f + 12)));
  m = _mm_min_ps(m, _mm_shuffle_ps(m, m, 0x4E));
  m = _mm_min_ps(m, _mm_shuffle_ps(m, m, 0xB1));
  return static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_castps_si128(m)));
#else
  return Lowest(keys, kFixedScan);
#endif
}

}  // namespace mtok::merge_key
