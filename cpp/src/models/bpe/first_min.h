// The position of the first smallest of a few u32 values: the merge loop
// of short words asks this once per merge.
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mtok {

inline size_t RoundUp4(size_t n) { return (n + 3) & ~size_t{3}; }

inline size_t FirstMinScalar(const uint32_t* v, size_t n) {
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    if (v[i] < v[best]) best = i;
  }
  return best;
}

#if defined(__SSE2__)
// Lane-wise minimum of signed values (SSE2 has no pminsd).
inline __m128i MinEpi32(__m128i a, __m128i b) {
  const __m128i lt = _mm_cmplt_epi32(a, b);
  return _mm_or_si128(_mm_and_si128(lt, a), _mm_andnot_si128(lt, b));
}
#endif

// Index of the first minimum of v[0, n), n >= 1. v must hold
// RoundUp4(n) values; those past n must be 0xFFFFFFFF (never smaller).
inline size_t FirstMin(const uint32_t* v, size_t n) {
#if defined(__SSE2__)
  // Short words (most of them) are done sooner by the plain scan.
  if (n <= 12) return FirstMinScalar(v, n);
  // Four lanes at a time, branch free: a scalar scan mispredicts at every
  // new minimum. SSE2 compares signed, so values are biased by 2^31.
  const __m128i bias = _mm_set1_epi32(static_cast<int>(0x80000000u));
  auto load = [&](size_t k) {
    return _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + 4 * k)), bias);
  };
  const size_t blocks = RoundUp4(n) / 4;
  __m128i m = load(0);
  for (size_t k = 1; k < blocks; ++k) m = MinEpi32(load(k), m);
  // Every lane becomes the minimum: swap halves, then neighbours.
  m = MinEpi32(_mm_shuffle_epi32(m, 0x4E), m);
  m = MinEpi32(_mm_shuffle_epi32(m, 0xB1), m);
  for (size_t k = 0;; ++k) {
    const int mask = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(load(k), m)));
    if (mask != 0) return 4 * k + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
#else
  return FirstMinScalar(v, n);
#endif
}

}  // namespace mtok
