#include "models/unigram/bitmap_trie.h"

#include <algorithm>

namespace mtok {
namespace {

uint8_t ByteAt(const TrieEntry& e, size_t k) { return static_cast<uint8_t>(e.token[k]); }

// Sorted by bytes; of equal tokens only the last given is kept.
std::vector<TrieEntry> SortedUnique(std::vector<TrieEntry> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const TrieEntry& a, const TrieEntry& b) { return a.token < b.token; });
  std::vector<TrieEntry> out;
  out.reserve(entries.size());
  for (const TrieEntry& e : entries) {
    if (e.token.empty()) continue;
    if (!out.empty() && out.back().token == e.token) out.back() = e;
    else out.push_back(e);
  }
  return out;
}

// Counts the children's bits at every node: POPCNT where the CPU has it (as
// the lattice in unigram.cc), not a library call. Internal: GCC gives the
// clones' resolver default visibility, which libmtok must not export.
__attribute__((target_clones("popcnt", "default")))
std::vector<TrieNode> BuildSorted(const std::vector<TrieEntry>& sorted) {
  // Node i covers sorted[lo, hi): the tokens that start with its string,
  // which is depth bytes long. Children are appended in byte order while
  // nodes are visited in index order, so the layout is breadth-first.
  struct Span {
    uint32_t depth, lo, hi;
  };
  // Each node but the root ends an edge of at least one byte of some token:
  // reserved for that bound, the nodes are never copied as they grow
  // (memory reserved and never written is never faulted in).
  size_t bound = 1;
  for (const TrieEntry& e : sorted) bound += e.token.size();
  std::vector<TrieNode> nodes;
  nodes.reserve(bound);
  nodes.emplace_back();
  std::vector<Span> spans;
  spans.reserve(bound);
  spans.push_back({0, 0, static_cast<uint32_t>(sorted.size())});
  nodes[0].id = kNoPiece;
  for (size_t at = 0; at < nodes.size(); ++at) {
    const Span span = spans[at];
    uint32_t i = span.lo;
    if (i < span.hi && sorted[i].token.size() == span.depth) {
      nodes[at].id = sorted[i].id;
      nodes[at].score = sorted[i].score;
      nodes[at].flags = sorted[i].user_defined ? kTrieUserDefined : 0;
      ++i;
    }
    nodes[at].first_child = static_cast<uint32_t>(nodes.size());
    while (i < span.hi) {
      const uint8_t c = ByteAt(sorted[i], span.depth);
      uint32_t j = i;
      while (j < span.hi && ByteAt(sorted[j], span.depth) == c) ++j;
      TrieNode child{};
      child.id = kNoPiece;
      uint32_t depth = span.depth + 1;
      // Fold bytes into the label while the node would end no piece and
      // have one child. Only the first token of a sorted run can be the
      // shortest, and the first and last agree on a byte only if all do.
      while (child.label_len < kTrieMaxLabel && sorted[i].token.size() > depth &&
             ByteAt(sorted[i], depth) == ByteAt(sorted[j - 1], depth)) {
        child.label[child.label_len++] = ByteAt(sorted[i], depth);
        ++depth;
      }
      nodes[at].child_bits[c >> 6] |= uint64_t{1} << (c & 63);
      nodes.push_back(child);
      spans.push_back({depth, i, j});
      i = j;
    }
    uint8_t total = 0;
    for (int k = 0; k < 4; ++k) {
      nodes[at].rank[k] = total;
      total = static_cast<uint8_t>(total + BitCount(nodes[at].child_bits[k]));
    }
  }
  return nodes;
}

}  // namespace

std::vector<TrieNode> BuildBitmapTrie(std::vector<TrieEntry> entries, bool presorted) {
  return BuildSorted(presorted ? std::move(entries) : SortedUnique(std::move(entries)));
}

}  // namespace mtok
