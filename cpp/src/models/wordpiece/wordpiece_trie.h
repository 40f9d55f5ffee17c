// A byte trie over a WordPiece vocab, so that the longest token at a
// position is one walk down the word instead of a hash lookup per candidate
// length: a word's miss costs about one step per byte of each piece.
//
// Nodes are numbered breadth first, so the children of a node are
// consecutive: a node holds where they start, how many there are and their
// bytes (sorted), and a step scans those bytes. Nodes with many children
// (the root, the "##" node) have a 256-entry table instead.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mtok {

class Vocab;

class WordPieceTrie {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // The tokens of `vocab`; a string held by several ids keeps the id
  // vocab.Find gives it.
  explicit WordPieceTrie(const Vocab& vocab);

  uint32_t root() const { return 0; }
  // The node reached from the root by `s`, or kNone.
  uint32_t Walk(std::string_view s) const;
  // The child of `node` along byte b, or kNone.
  uint32_t Child(uint32_t node, uint8_t b) const {
    const Node& n = nodes_[node];
    if (n.dense != kNone) {
      const uint32_t c = dense_[n.dense + b];
      return c;
    }
    const uint8_t* lab = labels_.data() + n.first;
#if defined(__SSE2__)
    // All (at most 16) labels in one compare: labels_ has 16 bytes of
    // padding at its end.
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lab));
    const uint32_t hit = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(b))))) &
                         ((1u << n.count) - 1);
    return hit ? n.first + static_cast<uint32_t>(__builtin_ctz(hit)) : kNone;
#else
    for (uint32_t k = 0; k < n.count; ++k) {
      if (lab[k] == b) return n.first + k;
      if (lab[k] > b) break;
    }
    return kNone;
#endif
  }
  // The token id ending at node, or kNone.
  uint32_t Token(uint32_t node) const { return nodes_[node].token; }

 private:
  struct Draft;
  struct Node {
    uint32_t first = 0;      // id of the first child
    uint32_t count = 0;      // number of children
    uint32_t token = kNone;  // the token this node spells
    uint32_t dense = kNone;  // offset of its 256-entry child table
  };
  std::vector<Node> nodes_;
  std::vector<uint8_t> labels_;   // labels_[node]: the byte leading to it
  std::vector<uint32_t> dense_;   // child tables of wide nodes (kNone: no child)
};

}  // namespace mtok
