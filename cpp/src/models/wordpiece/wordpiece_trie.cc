#include "models/wordpiece/wordpiece_trie.h"

#include <algorithm>

#include "models/vocab.h"

namespace mtok {

namespace {

// Nodes with more children than this get a direct table.
constexpr uint32_t kDenseFrom = 16;

}  // namespace

WordPieceTrie::WordPieceTrie(const Vocab& vocab) {
  // Insertion order first, with the edges in a hash table; then the nodes
  // renumbered breadth first with sorted children. Linear in the vocab's
  // bytes: sorting the tokens cost eight times as much at load.
  size_t bytes = 0;
  for (uint32_t id = 0; id < vocab.id_limit(); ++id) bytes += vocab.Token(id).size();
  size_t cap = 16;
  while (cap < 2 * bytes + 2) cap *= 2;
  std::vector<uint64_t> keys(cap, 0);  // (parent + 1) << 8 | byte; 0: free
  std::vector<uint32_t> targets(cap);
  std::vector<uint32_t> parent{kNone}, token{kNone};
  std::vector<uint8_t> label{0};
  for (uint32_t id = 0; id < vocab.id_limit(); ++id) {
    const std::string_view t = vocab.Token(id);
    if (t.empty()) continue;
    uint32_t node = 0;
    for (char c : t) {
      const uint64_t key = (uint64_t{node} + 1) << 8 | static_cast<uint8_t>(c);
      size_t i = (key * 0x9E3779B97F4A7C15ULL) >> 40 & (cap - 1);
      while (keys[i] != 0 && keys[i] != key) i = (i + 1) & (cap - 1);
      if (keys[i] == 0) {
        keys[i] = key;
        targets[i] = static_cast<uint32_t>(parent.size());
        parent.push_back(node);
        token.push_back(kNone);
        label.push_back(static_cast<uint8_t>(c));
      }
      node = targets[i];
    }
    // Several ids spell this string: the one the vocab's index gives.
    if (token[node] == kNone) token[node] = id;
    else vocab.Find(t, &token[node]);
  }
  const size_t n = parent.size();
  // Children of each node, grouped by parent, each group sorted by byte.
  std::vector<uint32_t> start(n + 1, 0), kids(n > 0 ? n - 1 : 0);
  for (size_t v = 1; v < n; ++v) ++start[parent[v] + 1];
  for (size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  {
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (size_t v = 1; v < n; ++v) kids[fill[parent[v]]++] = static_cast<uint32_t>(v);
  }
  for (size_t v = 0; v < n; ++v) {
    if (start[v + 1] - start[v] < 2) continue;
    std::sort(kids.begin() + start[v], kids.begin() + start[v + 1],
              [&](uint32_t a, uint32_t b) { return label[a] < label[b]; });
  }
  // Breadth first: the children of each node get consecutive numbers.
  std::vector<uint32_t> order{0};  // old ids in new order
  order.reserve(n);
  nodes_.resize(n);
  labels_.resize(n);
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t old = order[k];
    Node& node = nodes_[k];
    node.token = token[old];
    node.first = static_cast<uint32_t>(order.size());
    node.count = start[old + 1] - start[old];
    for (uint32_t c = start[old]; c < start[old + 1]; ++c) {
      labels_[order.size()] = label[kids[c]];
      order.push_back(kids[c]);
    }
    if (node.count > kDenseFrom) {
      node.dense = static_cast<uint32_t>(dense_.size());
      dense_.resize(dense_.size() + 256, kNone);
      for (uint32_t c = 0; c < node.count; ++c) dense_[node.dense + labels_[node.first + c]] = node.first + c;
    }
  }
  labels_.resize(n + 16, 0);  // Child reads 16 labels at once
}

uint32_t WordPieceTrie::Walk(std::string_view s) const {
  uint32_t node = root();
  for (char c : s) {
    node = Child(node, static_cast<uint8_t>(c));
    if (node == kNone) return kNone;
  }
  return node;
}

}  // namespace mtok
