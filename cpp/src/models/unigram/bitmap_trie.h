// The Unigram lattice's piece trie: one 64-byte node (one cache line) per
// branch or piece end. A 256-bit child bitmap says which bytes have a child,
// and the child for byte c sits at first_child + (set bits below c): the
// bitmap does the work of a double array's check array, and children need
// no placement search. Token id and score live in the node, so a match
// costs no string building or hash lookup. Runs of single-child nodes that
// end no piece are folded into the next node's `label`.
//
// The nodes are stored in the .mtok file (section UTRI) in breadth-first
// order and used in place; docs/format.md gives the layout.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "common/bit_count.h"

namespace mtok {

struct TrieNode {
  uint64_t child_bits[4];  // bit c: a child for byte c
  uint32_t first_child;    // node index of the child with the smallest byte
  uint32_t id;             // token id, or kNoPiece
  double score;            // the piece's score (SentencePiece: a float, widened)
  uint8_t rank[4];         // set bits in child_bits[0..k)
  uint8_t label_len;       // bytes in `label`
  uint8_t flags;           // kUserDefined
  uint8_t label[10];       // bytes that follow the edge byte before this node ends
};
static_assert(sizeof(TrieNode) == 64, "a trie node is one cache line");

constexpr uint32_t kNoPiece = 0xFFFFFFFFu;
constexpr uint8_t kTrieUserDefined = 1;
constexpr size_t kTrieMaxLabel = sizeof(TrieNode::label);

struct TrieEntry {
  std::string_view token;
  uint32_t id;
  double score;
  bool user_defined;
};

// Builds the nodes for `entries` (any order; for equal tokens the last one
// wins). Node 0 is the root.
// `presorted`: the entries are already in strictly ascending byte order
// (then they are not sorted again).
std::vector<TrieNode> BuildBitmapTrie(std::vector<TrieEntry> entries, bool presorted = false);

class BitmapTrie {
 public:
  BitmapTrie() = default;
  // Ids at or above id_limit (a corrupt file) count as no piece.
  BitmapTrie(const TrieNode* nodes, size_t n, uint32_t id_limit)
      : nodes_(nodes), n_(n), id_limit_(id_limit) {}
  const TrieNode* nodes() const { return nodes_; }
  size_t size() const { return n_; }

  // Calls fn(length, node) for every piece that is a prefix of [s, s + n),
  // shortest first. A child index beyond the array (a corrupt file) ends
  // the walk like a missing child.
  template <typename Fn>
  __attribute__((always_inline)) void ForEachPrefix(const uint8_t* s, size_t n, Fn&& fn) const {
    if (n_ == 0) return;
    const TrieNode* node = nodes_;
    size_t p = 0;
    while (p < n) {
      const unsigned c = s[p];
      const uint64_t word = node->child_bits[c >> 6];
      const uint64_t bit = uint64_t{1} << (c & 63);
      if (!(word & bit)) return;
      const size_t child = size_t{node->first_child} + node->rank[c >> 6] +
                           static_cast<size_t>(BitCount(word & (bit - 1)));
      if (child >= n_) return;
      node = nodes_ + child;
      ++p;
      if (const size_t len = node->label_len) {
        if (len > n - p || len > kTrieMaxLabel || std::memcmp(s + p, node->label, len) != 0) return;
        p += len;
      }
      if (node->id < id_limit_) fn(p, *node);
    }
  }

 private:
  const TrieNode* nodes_ = nullptr;
  size_t n_ = 0;
  uint32_t id_limit_ = 0;
};

}  // namespace mtok
