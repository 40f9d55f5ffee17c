// A byte trie over a WordPiece vocab, so that the longest token at a
// position is one walk down the word instead of a hash lookup per candidate
// length: a word's miss costs about one step per byte of each piece.
//
// Nodes are numbered breadth first, so the children of a node are
// consecutive: a node holds where they start, how many there are and their
// bytes (sorted), and a step scans those bytes. Nodes with many children
// (the root, the "##" node) have a 256-entry table instead.
//
// Built at the first word, or adopted in place from the file's WTRI section
// (docs/format.md), which the export writes: bert's first encode after a
// cached load then builds nothing.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mtok/status.h"

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
  WordPieceTrie() = default;
  WordPieceTrie(WordPieceTrie&&) = default;  // the views point into owned buffers, which move along
  WordPieceTrie& operator=(WordPieceTrie&&) = default;
  WordPieceTrie(const WordPieceTrie&) = delete;
  WordPieceTrie& operator=(const WordPieceTrie&) = delete;

  // The WTRI payload of this trie.
  std::string Payload() const;
  // Adopts a WTRI payload in place (it must outlive the trie and be 4-byte
  // aligned), after checking every child range and table entry, so that no
  // walk reads outside it, and every token id against `id_limit`.
  static Status Parse(std::string_view payload, uint32_t id_limit, WordPieceTrie* out);
  bool mapped() const { return owned_nodes_.empty() && nodes_ != nullptr; }

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
    const uint8_t* lab = labels_ + n.first;
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
  struct Node {  // as stored in WTRI
    uint32_t first = 0;      // id of the first child
    uint32_t count = 0;      // number of children
    uint32_t token = kNone;  // the token this node spells
    uint32_t dense = kNone;  // offset of its 256-entry child table
  };
  static_assert(sizeof(Node) == 16, "a node is four u32 in the file");
  // Views of the owned buffers, or of a mapped WTRI payload.
  const Node* nodes_ = nullptr;
  const uint8_t* labels_ = nullptr;  // labels_[node]: the byte leading to it (+16 bytes of padding)
  const uint32_t* dense_ = nullptr;  // child tables of wide nodes (kNone: no child)
  uint32_t node_count_ = 0, dense_count_ = 0, label_count_ = 0;
  std::vector<Node> owned_nodes_;
  std::vector<uint8_t> owned_labels_;
  std::vector<uint32_t> owned_dense_;
};

}  // namespace mtok
