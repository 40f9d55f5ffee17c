#include "models/wordpiece/wordpiece_trie.h"

#include <algorithm>

#include "common/sort_by_bytes.h"
#include "models/vocab.h"

namespace mtok {

namespace {

// Nodes with more children than this get a direct table.
constexpr uint32_t kDenseFrom = 16;

}  // namespace

WordPieceTrie::WordPieceTrie(const Vocab& vocab) {
  // The tokens in byte order, each one's new nodes hung off the path of
  // the one before it: no edge lookups (a hash table of edges was most of
  // a cached bert load's first encode: megabytes cleared, a miss per byte),
  // and each node's children come out grouped and sorted.
  std::vector<uint32_t> by_bytes;
  by_bytes.reserve(vocab.size());
  size_t bytes = 0;
  for (uint32_t id = 0; id < vocab.id_limit(); ++id) {
    const size_t len = vocab.Token(id).size();
    if (len == 0) continue;
    by_bytes.push_back(id);
    bytes += len;
  }
  SortByBytes(&by_bytes, [&vocab](uint32_t id) { return vocab.Token(id); }, [](uint32_t a, uint32_t b) { return a < b; });
  std::vector<uint32_t> parent{kNone}, token{kNone};
  std::vector<uint8_t> label{0};
  parent.reserve(bytes + 1);  // at most a node per byte
  token.reserve(bytes + 1);
  label.reserve(bytes + 1);
  std::vector<uint32_t> path{0};  // path[d]: the node at depth d on the previous token
  std::string_view prev;
  for (uint32_t id : by_bytes) {
    const std::string_view t = vocab.Token(id);
    size_t shared = 0;
    const size_t limit = std::min(t.size(), prev.size());
    while (shared < limit && t[shared] == prev[shared]) ++shared;
    path.resize(shared + 1);
    for (size_t d = shared; d < t.size(); ++d) {
      const auto node = static_cast<uint32_t>(parent.size());
      parent.push_back(path[d]);
      token.push_back(kNone);
      label.push_back(static_cast<uint8_t>(t[d]));
      path.push_back(node);
    }
    // Several ids spell this string (adjacent in the order): the one the
    // vocab's index gives.
    uint32_t& owner = token[path[t.size()]];
    if (owner == kNone) owner = id;
    else vocab.Find(t, &owner);
    prev = t;
  }
  const size_t n = parent.size();
  // Children of each node, grouped by parent: nodes were made in byte
  // order, so each group is sorted by byte already.
  std::vector<uint32_t> start(n + 1, 0), kids(n > 0 ? n - 1 : 0);
  for (size_t v = 1; v < n; ++v) ++start[parent[v] + 1];
  for (size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  {
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (size_t v = 1; v < n; ++v) kids[fill[parent[v]]++] = static_cast<uint32_t>(v);
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
