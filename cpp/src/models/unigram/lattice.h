// Viterbi over the Unigram lattice, with the two references' arithmetic:
// HF tokenizers (double) and SentencePiece 0.2.3 (float with rebasing).
// best[e] is the best path ending at byte e; the caller supplies best[0..n]
// from reusable scratch, so steady-state encoding allocates nothing.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/utf8.h"
#include "models/unigram/bitmap_trie.h"

// Inlined into each caller so that a caller built for POPCNT counts bits
// with that instruction.
#define MTOK_ALWAYS_INLINE __attribute__((always_inline))

namespace mtok {

struct LatticeBest {
  double score;
  int32_t start;  // where the last piece starts; -1: no path yet
  uint32_t id;
  bool unknown;   // the inserted unknown node, not a vocab match
};

struct LatticeParams {
  double unk_score;
  uint32_t unk_id;
};

namespace lattice_detail {

inline size_t CharLen(const uint8_t* s, size_t n, size_t at) {
  return std::min<size_t>(utf8::seq_len(s[at]), n - at);
}

// Keeps the candidate if it is the first at its end or strictly better:
// ties keep the path whose last piece starts first.
inline void Offer(LatticeBest* target, double cand, size_t start, uint32_t id, bool unknown) {
  if (target->start >= 0 && !(cand > target->score)) return;
  *target = {cand, static_cast<int32_t>(start), id, unknown};
}

}  // namespace lattice_detail

// HF's encode_optimized: scores summed in double.
MTOK_ALWAYS_INLINE inline void ViterbiHf(const BitmapTrie& trie, const uint8_t* s, size_t n, const LatticeParams& p,
                      LatticeBest* best) {
  using namespace lattice_detail;
  for (size_t start = 0; start < n;) {
    const double here = best[start].score;
    const size_t mblen = CharLen(s, n, start);
    bool has_single = false;
    trie.ForEachPrefix(s + start, n - start, [&](size_t len, const TrieNode& node) {
      Offer(&best[start + len], node.score + here, start, node.id, false);
      has_single |= len == mblen;
    });
    if (!has_single) Offer(&best[start + mblen], p.unk_score + here, start, p.unk_id, true);
    start += mblen;
  }
}

// SentencePiece 0.2.3's EncodeOptimized, to the rounding: path scores are
// floats summed in float. When the score at the current start leaves
// [-1e5, 1e5], every path score from there to the furthest end reached is
// rebased by subtracting it, which keeps float precision on long inputs
// and so decides near-ties. A user-defined piece scores
// float((bytes - 1) * 0.1).
MTOK_ALWAYS_INLINE inline void ViterbiSentencePiece(const BitmapTrie& trie, const uint8_t* s, size_t n,
                                 const LatticeParams& p, LatticeBest* best) {
  using namespace lattice_detail;
  constexpr float kRebaseAt = 1e5f;
  const float unk_score = static_cast<float>(p.unk_score);
  size_t furthest = 0;
  for (size_t start = 0; start < n;) {
    float here = static_cast<float>(best[start].score);
    if (here < -kRebaseAt || here > kRebaseAt) {
      for (size_t at = start + 1; at <= furthest; ++at) {
        if (best[at].start >= 0) best[at].score = static_cast<float>(best[at].score) - here;
      }
      best[start].score = 0;
      here = 0;
    }
    const size_t mblen = CharLen(s, n, start);
    bool has_single = false;
    trie.ForEachPrefix(s + start, n - start, [&](size_t len, const TrieNode& node) {
      furthest = std::max(furthest, start + len);
      const float score = (node.flags & kTrieUserDefined)
                              ? static_cast<float>(static_cast<double>(len - 1) * 0.1)
                              : static_cast<float>(node.score);
      Offer(&best[start + len], score + here, start, node.id, false);
      has_single |= len == mblen;
    });
    if (!has_single) {
      furthest = std::max(furthest, start + mblen);
      Offer(&best[start + mblen], unk_score + here, start, p.unk_id, true);
    }
    start += mblen;
  }
}

}  // namespace mtok
