// The BERT classes of 16 ASCII bytes at once (SSE2, in every x86-64 CPU):
// the bytes as normalized (lowercased or not) and bit masks of the word
// bytes (letters and digits) and the punctuation; the rest are white space.
// A control byte or a non-ASCII byte ends what a block can classify: the
// bytes before it are taken, it and the rest are left to the scalar loop,
// which drops or maps them. Elsewhere there is no block path.
#pragma once
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#define MTOK_BERT_ASCII_BLOCKS 1
#endif

namespace mtok::bert_ascii {

// Bytes the block path classifies itself: letters and digits (words),
// ' ', \t, \n, \r (white space) and the other printable ASCII bytes
// (punctuation). The route checks its byte table agrees before using it.
inline bool IsBlockByte(uint8_t b) { return (b >= 0x20 && b < 0x7F) || b == '\t' || b == '\n' || b == '\r'; }

struct Masks {
  uint32_t word, punct;
};

#ifdef MTOK_BERT_ASCII_BLOCKS
// How many bytes from the block's start are block bytes (16: all). When
// at least `min`, stores the normalized block at out (16 bytes) and fills
// *m (bits past that count are the later bytes': the caller masks them).
inline unsigned Classify(const char* in, bool lowercase, unsigned min, char* out, Masks* m) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
  // Signed compares: bytes >= 0x80 are negative, so below 0x20 too.
  const __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
  const __m128i tab = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
  const __m128i del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F));
  const auto bad = static_cast<uint32_t>(_mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(tab, low), del)));
  const auto good = static_cast<unsigned>(__builtin_ctz(bad | 0x10000));
  if (good < min) return good;
  const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                      _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
  const __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('A' - 1)),
                                      _mm_cmplt_epi8(v, _mm_set1_epi8('Z' + 1)));
  const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
  const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(folded, _mm_set1_epi8('a' - 1)),
                                       _mm_cmplt_epi8(folded, _mm_set1_epi8('z' + 1)));
  const __m128i space = _mm_or_si128(tab, _mm_cmpeq_epi8(v, _mm_set1_epi8(' ')));
  const __m128i word = _mm_or_si128(digit, letter);
  const __m128i normalized = lowercase ? _mm_or_si128(v, _mm_and_si128(upper, _mm_set1_epi8(0x20))) : v;
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), normalized);
  m->word = static_cast<uint32_t>(_mm_movemask_epi8(word));
  m->punct = static_cast<uint32_t>(_mm_movemask_epi8(_mm_andnot_si128(_mm_or_si128(word, space), _mm_set1_epi8(-1))));
  return good;
}
#endif

}  // namespace mtok::bert_ascii
