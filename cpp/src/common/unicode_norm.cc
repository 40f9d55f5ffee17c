// NFC/NFD/NFKC/NFKD (UAX #15) and full lowercase, matching HF tokenizers:
// normalization data is Unicode 9.0 (its unicode-normalization-alignments
// crate), lowercase is Rust's char::to_lowercase (Unicode 17.0).
//
// Text is cut before every "safe" code point (ccc 0 and quick check Yes for
// the form): nothing on one side of such a point changes the other, so runs
// of safe code points are copied and only the pieces between them go through
// decompose -> canonical reorder -> compose, in place in the output.
#include "common/unicode_norm.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "common/utf8.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace mtok::unicode {
namespace {

#include "common/unicode_norm_tables.inc"

// Hangul syllables are composed and decomposed arithmetically (UAX #15 3.12).
constexpr uint32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr uint32_t kLCount = 19, kVCount = 21, kTCount = 28;
constexpr uint32_t kSCount = kLCount * kVCount * kTCount;

inline uint32_t props(char32_t cp) {
  if (cp >= kPropLimit) return kPropDefault;
  uint32_t block = kPropStage1[cp >> kPropShift];
  return kPropStage2[(block << kPropShift) | (cp & ((1u << kPropShift) - 1))];
}

inline uint8_t ccc_of(char32_t cp) { return static_cast<uint8_t>(props(cp) & 0xFF); }

// Full decomposition of cp from a sorted key table, or null when absent.
const char32_t* find_decomposition(const uint32_t* keys, const uint32_t* vals, size_t n,
                                   char32_t cp, size_t* len) {
  const uint32_t* it = std::lower_bound(keys, keys + n, static_cast<uint32_t>(cp));
  if (it == keys + n || *it != cp) return nullptr;
  uint32_t v = vals[it - keys];
  *len = v & 31;
  return kDecompPool + (v >> 5);
}

// Primary composite of the pair (a, b), or 0.
char32_t compose_pair(char32_t a, char32_t b) {
  uint32_t l = a - kLBase, v = b - kVBase;
  if (l < kLCount && v < kVCount) return kSBase + (l * kVCount + v) * kTCount;
  uint32_t s = a - kSBase, t = b - kTBase;
  if (s < kSCount && s % kTCount == 0 && t - 1 < kTCount - 1) return a + t;
  uint64_t key = static_cast<uint64_t>(a) << 21 | b;
  const uint64_t* end = kCompKeys + std::size(kCompKeys);
  const uint64_t* it = std::lower_bound(kCompKeys, end, key);
  return it != end && *it == key ? kCompVals[it - kCompKeys] : 0;
}

template <bool kSrc>
class Normalizer {
 public:
  Normalizer(NormForm form, std::u32string* out, std::vector<uint32_t>* src)
      : compat_(form == NormForm::NFKC || form == NormForm::NFKD),
        compose_(form == NormForm::NFC || form == NormForm::NFKC),
        out_(*out), src_(src) {
    static constexpr uint32_t kSafe[] = {kSafeNFC, kSafeNFD, kSafeNFKC, kSafeNFKD};
    safe_ = kSafe[static_cast<int>(form)];
  }

  void run(std::u32string_view in) {
    out_.clear();
    out_.reserve(in.size());
    if (kSrc) {
      src_->clear();
      src_->reserve(in.size());
    }
    size_t n = in.size(), i = 0;
    while (i < n) {
      size_t j = i;
      while (j < n && is_safe(in[j])) ++j;
      if (j == n) {
        copy(in, i, n);
        break;
      }
      // The safe code point before in[j] may compose with what follows it.
      size_t start = compose_ && j > i ? j - 1 : j;
      size_t end = j + 1;
      while (end < n && !is_safe(in[end])) ++end;
      copy(in, i, start);
      piece(in, start, end);
      i = end;
    }
  }

 private:
  bool is_safe(char32_t cp) const { return cp < 0x80 || (props(cp) & safe_); }

  void push(char32_t cp, uint32_t from) {
    out_.push_back(cp);
    if (kSrc) src_->push_back(from);
  }

  void copy(std::u32string_view in, size_t from, size_t to) {
    out_.append(in.data() + from, to - from);
    if (kSrc)
      for (size_t k = from; k < to; ++k) src_->push_back(static_cast<uint32_t>(k));
  }

  void piece(std::u32string_view in, size_t from, size_t to) {
    size_t base = out_.size();
    for (size_t k = from; k < to; ++k) decompose(in[k], static_cast<uint32_t>(k));
    reorder(base);
    if (compose_) compose(base);
  }

  void decompose(char32_t cp, uint32_t from) {
    uint32_t s = cp - kSBase;
    if (s < kSCount) {
      push(kLBase + s / (kVCount * kTCount), from);
      push(kVBase + s % (kVCount * kTCount) / kTCount, from);
      if (s % kTCount) push(kTBase + s % kTCount, from);
      return;
    }
    uint32_t p = props(cp);
    const char32_t* seq = nullptr;
    size_t len = 0;
    if (compat_ && (p & kHasCompat)) {
      seq = find_decomposition(kCompatKeys, kCompatVals, std::size(kCompatKeys), cp, &len);
    } else if (p & kHasCanon) {
      seq = find_decomposition(kCanonKeys, kCanonVals, std::size(kCanonKeys), cp, &len);
    }
    if (!seq) {
      push(cp, from);
      return;
    }
    for (size_t k = 0; k < len; ++k) push(seq[k], from);
  }

  // Canonical ordering: stable sort of each run of non-starters by ccc.
  void reorder(size_t base) {
    size_t n = out_.size(), k = base;
    while (k < n) {
      uint8_t prev = ccc_of(out_[k]);
      if (prev == 0) {
        ++k;
        continue;
      }
      size_t end = k + 1;
      bool sorted = true;
      for (; end < n; ++end) {
        uint8_t c = ccc_of(out_[end]);
        if (c == 0) break;
        if (c < prev) sorted = false;
        prev = c;
      }
      if (!sorted) sort_run(k, end);
      k = end;
    }
  }

  // Runs out of order are rare and short: insertion sort them in place;
  // stable_sort keeps long (hostile) runs n log n.
  void sort_run(size_t from, size_t to) {
    if (to - from <= 16) {
      for (size_t k = from + 1; k < to; ++k) {
        char32_t cp = out_[k];
        uint32_t s = kSrc ? (*src_)[k] : 0;
        uint8_t cc = ccc_of(cp);
        size_t h = k;
        for (; h > from && ccc_of(out_[h - 1]) > cc; --h) {
          out_[h] = out_[h - 1];
          if (kSrc) (*src_)[h] = (*src_)[h - 1];
        }
        out_[h] = cp;
        if (kSrc) (*src_)[h] = s;
      }
      return;
    }
    std::vector<Mark> run;
    run.reserve(to - from);
    for (size_t k = from; k < to; ++k)
      run.push_back({ccc_of(out_[k]), out_[k], kSrc ? (*src_)[k] : 0});
    std::stable_sort(run.begin(), run.end(),
                     [](const Mark& a, const Mark& b) { return a.ccc < b.ccc; });
    for (size_t k = from; k < to; ++k) {
      out_[k] = run[k - from].cp;
      if (kSrc) (*src_)[k] = run[k - from].src;
    }
  }

  // Canonical composition, in place: a mark joins the last starter unless a
  // code point between them has ccc 0 or a ccc >= its own (it is "blocked").
  void compose(size_t base) {
    size_t n = out_.size(), w = base;
    size_t starter = SIZE_MAX;
    bool adjacent = false;  // the last code point written is the starter
    uint8_t last_ccc = 0;   // ccc of the last code point written otherwise
    for (size_t r = base; r < n; ++r) {
      char32_t cp = out_[r];
      uint32_t p = props(cp);
      uint8_t cc = static_cast<uint8_t>(p & 0xFF);
      if (starter != SIZE_MAX && (p & kIsSecond) && (adjacent || last_ccc < cc)) {
        if (char32_t comp = compose_pair(out_[starter], cp)) {
          out_[starter] = comp;  // keeps the starter's src
          continue;
        }
      }
      if (cc == 0) {
        starter = w;
        adjacent = true;
      } else {
        adjacent = false;
        last_ccc = cc;
      }
      out_[w] = cp;
      if (kSrc) (*src_)[w] = (*src_)[r];
      ++w;
    }
    out_.resize(w);
    if (kSrc) src_->resize(w);
  }

  struct Mark {
    uint8_t ccc;
    char32_t cp;
    uint32_t src;
  };

  bool compat_, compose_;
  uint32_t safe_;
  std::u32string& out_;
  std::vector<uint32_t>* src_;
};

uint32_t lower_index(char32_t cp) {
  if (cp >= kLowerLimit) return 0;
  uint32_t block = kLowerStage1[cp >> kLowerShift];
  return kLowerStage2[(block << kLowerShift) | (cp & ((1u << kLowerShift) - 1))];
}

}  // namespace

void normalize(NormForm form, std::u32string_view in, std::u32string* out,
               std::vector<uint32_t>* src) {
  if (src) {
    Normalizer<true>(form, out, src).run(in);
  } else {
    Normalizer<false>(form, out, nullptr).run(in);
  }
}

bool is_nfc_safe(char32_t cp) { return cp < 0x80 || (props(cp) & kSafeNFC); }

namespace {

// is_nfc_safe for every BMP code point, a bit each.
struct NfcSafeBmp {
  uint64_t bits[0x10000 / 64] = {};
  NfcSafeBmp() {
    for (char32_t cp = 0; cp < 0x10000; ++cp) {
      if (is_nfc_safe(cp)) bits[cp >> 6] |= uint64_t{1} << (cp & 63);
    }
  }
  bool Has(char32_t cp) const { return (bits[cp >> 6] >> (cp & 63)) & 1; }
  // Every code point of lead byte b's two- or three-byte sequences (the
  // bits the scalar scan below reads for b) is safe.
  bool LeadSafe(unsigned b) const {
    return b < 0xE0 ? RangeSafe((b & 0x1Fu) << 6, 64) : RangeSafe((b & 0x0Fu) << 12, 4096);
  }
  // Every code point of three-byte lead b and second byte c is safe.
  bool BlockSafe(unsigned b, unsigned c) const { return RangeSafe((b & 0x0Fu) << 12 | (c & 0x3Fu) << 6, 64); }
  bool RangeSafe(char32_t first, char32_t count) const {
    for (char32_t cp = first; cp < first + count; ++cp) {
      if (!Has(cp)) return false;
    }
    return true;
  }
};

// Whether the code point at utf8[i] (not ASCII) is safe, as the scan reads
// it; *len is its length. Two- and three-byte sequences (the BMP) from the
// bitmap, their continuation bytes checked; anything else as
// utf8::decode reads it (a malformed sequence: U+FFFD of one byte).
inline bool SafeAt(const NfcSafeBmp& safe, std::string_view utf8, size_t i, size_t* len) {
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t n = utf8.size();
  const unsigned b = p[i];
  if ((b & 0xF0) == 0xE0 && n - i >= 3 && (p[i + 1] & 0xC0) == 0x80 && (p[i + 2] & 0xC0) == 0x80) {
    *len = 3;
    return safe.Has((b & 0x0Fu) << 12 | (p[i + 1] & 0x3Fu) << 6 | (p[i + 2] & 0x3Fu));
  }
  if ((b & 0xE0) == 0xC0 && b >= 0xC2 && n - i >= 2 && (p[i + 1] & 0xC0) == 0x80) {
    *len = 2;
    return safe.Has((b & 0x1Fu) << 6 | (p[i + 1] & 0x3Fu));
  }
  int l;
  const char32_t cp = utf8::decode(utf8, i, &l);
  *len = static_cast<size_t>(l);
  return is_nfc_safe(cp);
}

size_t FirstUnsafeScalar(const NfcSafeBmp& safe, std::string_view utf8, size_t i) {
  const size_t n = utf8.size();
  while (i < n) {
    if (static_cast<unsigned char>(utf8[i]) < 0x80) {
      i = utf8::ascii_end(utf8, i);
      continue;
    }
    size_t len;
    if (!SafeAt(safe, utf8, i, &len)) return i;
    i += len;
  }
  return n;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MTOK_NFC_AVX2 1
// 32 bytes at a time, every byte classed by two nibble lookups: ASCII,
// continuation bytes and the lead bytes whose code points are all safe
// (CJK ideographs, Hangul, Cyrillic, Latin-1 and Latin Extended: most of
// most scripts) pass, and kana by their second byte; the code points of
// the other leads (CJK and general punctuation, Greek, Arabic, combining
// marks) are read one by one as the scan reads them. A passed lead's sequence is safe whether it is well
// formed or not (a malformed one decodes as U+FFFD, which is safe:
// NfcLeadBlocks checks), and the scan never stops at a continuation byte,
// so the offset found is the scalar scan's. Only SkipSafeBlocks is
// compiled for AVX2 (the build targets generic x86-64).
struct NfcLeadBlocks {
  // A byte passes when its high nibble's entry and its low nibble's share
  // a bit: bit 3 for high nibbles 0..B, bits 0, 1, 2 for leads C_, D_, E_
  // whose low nibble is a safe lead's.
  alignas(16) uint8_t high[16] = {};
  alignas(16) uint8_t low[16] = {};
  // Kana (E3 81 __ and E3 83 __, U+3040-307F and U+30C0-30FF) are all safe,
  // where lead E3's other blocks hold marks (U+302A-302F, U+3099-309A):
  // those two pass by their second byte too. Half the stops of the corpus
  // text were kana.
  bool kana = false;
  bool usable = false;
  explicit NfcLeadBlocks(const NfcSafeBmp& safe) {
    for (int h = 0; h < 16; ++h) high[h] = h <= 0xB ? 8 : h == 0xC ? 1 : h == 0xD ? 2 : h == 0xE ? 4 : 0;
    for (int l = 0; l < 16; ++l) {
      low[l] = 8;
      // C0 and C1 are no two-byte leads (utf8::decode reads them): never passed.
      if (l >= 2 && safe.LeadSafe(0xC0 | l)) low[l] |= 1;
      if (safe.LeadSafe(0xD0 | l)) low[l] |= 2;
      if (safe.LeadSafe(0xE0 | l)) low[l] |= 4;
    }
    kana = safe.BlockSafe(0xE3, 0x81) && safe.BlockSafe(0xE3, 0x83);
    usable = is_nfc_safe(0xFFFD) && (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
  }
};

// Scans whole blocks from i: the offset of the first unsafe code point
// (*found), else where fewer than 32 bytes are left.
__attribute__((target("avx2"))) size_t SkipSafeBlocks(const NfcLeadBlocks& t, const NfcSafeBmp& safe,
                                                      std::string_view utf8, size_t i, bool* found) {
  const auto* p = reinterpret_cast<const unsigned char*>(utf8.data());
  const size_t n = utf8.size();
  const __m256i high = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(t.high)));
  const __m256i low = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(t.low)));
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  for (; n - i >= 32; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    const __m256i h = _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    const __m256i l = _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble));
    auto stop = static_cast<uint32_t>(
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(h, l), _mm256_setzero_si256())));
    if (stop != 0 && t.kana && n - i >= 33) {
      // E3 before 81 or 83 (the only second bytes that are 83 with bit 1 set).
      const __m256i second = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 1));
      const __m256i kana = _mm256_and_si256(
          _mm256_cmpeq_epi8(v, _mm256_set1_epi8(static_cast<char>(0xE3))),
          _mm256_cmpeq_epi8(_mm256_or_si256(second, _mm256_set1_epi8(2)), _mm256_set1_epi8(static_cast<char>(0x83))));
      stop &= ~static_cast<uint32_t>(_mm256_movemask_epi8(kana));
    }
    for (; stop != 0; stop &= stop - 1) {
      const size_t at = i + static_cast<size_t>(__builtin_ctz(stop));
      size_t len;
      if (!SafeAt(safe, utf8, at, &len)) {
        *found = true;
        return at;
      }
    }
  }
  *found = false;
  return i;
}
#endif

}  // namespace

size_t first_nfc_unsafe(std::string_view utf8, size_t from) {
  static const NfcSafeBmp safe;
  if (from >= utf8.size()) return utf8.size();
#if MTOK_NFC_AVX2
  static const NfcLeadBlocks blocks(safe);
  if (blocks.usable && utf8.size() - from >= 32) {
    bool found;
    from = SkipSafeBlocks(blocks, safe, utf8, from, &found);
    if (found) return from;
  }
#endif
  return FirstUnsafeScalar(safe, utf8, from);
}

void decompose_canonical(char32_t cp, std::u32string* out) {
  uint32_t s = cp - kSBase;
  if (s < kSCount) {
    out->push_back(kLBase + s / (kVCount * kTCount));
    out->push_back(kVBase + s % (kVCount * kTCount) / kTCount);
    if (s % kTCount) out->push_back(kTBase + s % kTCount);
    return;
  }
  size_t len = 0;
  const char32_t* seq = (props(cp) & kHasCanon)
      ? find_decomposition(kCanonKeys, kCanonVals, std::size(kCanonKeys), cp, &len)
      : nullptr;
  if (seq) {
    out->append(seq, len);
  } else {
    out->push_back(cp);
  }
}

uint8_t combining_class(char32_t cp) { return ccc_of(cp); }

void to_lower(char32_t cp, std::u32string* out) {
  if (cp < 0x80) {
    out->push_back(cp - U'A' < 26 ? cp + 32 : cp);
    return;
  }
  uint32_t idx = lower_index(cp);
  if (idx != kLowerMultiMarker) {
    out->push_back(static_cast<char32_t>(static_cast<int32_t>(cp) + kLowerDeltas[idx]));
    return;
  }
  for (const LowerMulti& m : kLowerMulti) {
    if (m.cp != cp) continue;
    for (char32_t c : m.seq)
      if (c) out->push_back(c);
    return;
  }
}

void to_lower(std::u32string_view in, std::u32string* out, std::vector<uint32_t>* src) {
  out->clear();
  out->reserve(in.size());
  if (src) {
    src->clear();
    src->reserve(in.size());
  }
  for (size_t i = 0; i < in.size(); ++i) {
    char32_t cp = in[i];
    if (cp < 0x80) {
      out->push_back(cp - U'A' < 26 ? cp + 32 : cp);
    } else {
      to_lower(cp, out);
    }
    if (src) src->resize(out->size(), static_cast<uint32_t>(i));
  }
}

}  // namespace mtok::unicode
