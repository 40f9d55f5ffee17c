// The position of the first smallest of a few u32 values: the merge loop
// of short words asks this once per merge.
#pragma once
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mtok {

// Index of the first minimum of v[0, n), n >= 1. v must hold
// RoundUp4(n) values; those past n must be 0xFFFFFFFF (never smaller).
inline size_t RoundUp4(size_t n) { return (n + 3) & ~size_t{3}; }

inline size_t FirstMinScalar(const uint32_t* v, size_t n) {
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    if (v[i] < v[best]) best = i;
  }
  return best;
}

inline size_t FirstMin(const uint32_t* v, size_t n) {
#if defined(__SSE2__)
  // Short words (most of them) are done sooner by the plain scan.
  if (n <= 12) return FirstMinScalar(v, n);
  // Four lanes at a time, branch free: a scalar scan mispredicts at every
  // new minimum. SSE2 compares signed, so values are biased by 2^31.
  const __m128i bias = _mm_set1_epi32(static_cast<int>(0x80000000u));
  const size_t blocks = RoundUp4(n) / 4;
  __m128i m = _mm_set1_epi32(0x7FFFFFFF);  // the largest biased value
  for (size_t k = 0; k < blocks; ++k) {
    const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + 4 * k)), bias);
    const __m128i lt = _mm_cmplt_epi32(x, m);
    m = _mm_or_si128(_mm_and_si128(lt, x), _mm_andnot_si128(lt, m));
  }
  for (int shuffle : {0x4E, 0xB1}) {  // every lane becomes the minimum
    const __m128i y = shuffle == 0x4E ? _mm_shuffle_epi32(m, 0x4E) : _mm_shuffle_epi32(m, 0xB1);
    const __m128i lt = _mm_cmplt_epi32(y, m);
    m = _mm_or_si128(_mm_and_si128(lt, y), _mm_andnot_si128(lt, m));
  }
  for (size_t k = 0;; ++k) {
    const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v + 4 * k)), bias);
    const int mask = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, m)));
    if (mask != 0) return 4 * k + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
  }
#else
  return FirstMinScalar(v, n);
#endif
}

}  // namespace mtok
