#include "models/wordpiece/wordpiece_trie.h"

#include <algorithm>
#include <cstring>

#include "common/sort_by_bytes.h"
#include "models/vocab.h"

namespace mtok {

namespace {

// Nodes with more children than this get a direct table.
constexpr uint32_t kDenseFrom = 16;
// Labels past the last node: Child reads 16 at once.
constexpr uint32_t kLabelPad = 16;

}  // namespace

// The trie's nodes before they are numbered breadth first.
struct WordPieceTrie::Draft {
  std::vector<uint32_t> parent, token;
  std::vector<uint8_t> label;

  // The tokens of `ids` in byte order, each one's new nodes hung off the
  // path of the one before it; false when `ids` is not in byte order.
  bool Build(const Vocab& vocab, const std::vector<uint32_t>& ids) {
    size_t bytes = 0;
    for (uint32_t id : ids) bytes += vocab.Token(id).size();
    parent.assign(1, kNone);
    token.assign(1, kNone);
    label.assign(1, 0);
    parent.reserve(bytes + 1);  // at most a node per byte
    token.reserve(bytes + 1);
    label.reserve(bytes + 1);
    std::vector<uint32_t> path{0};  // path[d]: the node at depth d on the previous token
    std::string_view prev;
    for (uint32_t id : ids) {
      const std::string_view t = vocab.Token(id);
      size_t shared = 0;
      const size_t limit = std::min(t.size(), prev.size());
      while (shared < limit && t[shared] == prev[shared]) ++shared;
      const bool below = shared < limit ? static_cast<uint8_t>(t[shared]) < static_cast<uint8_t>(prev[shared])
                                        : t.size() < prev.size();
      if (below) return false;
      path.resize(shared + 1);
      for (size_t d = shared; d < t.size(); ++d) {
        const auto node = static_cast<uint32_t>(parent.size());
        parent.push_back(path[d]);
        token.push_back(kNone);
        label.push_back(static_cast<uint8_t>(t[d]));
        path.push_back(node);
      }
      // Several ids spell this string (adjacent in byte order): the one
      // the vocab's index gives.
      uint32_t& owner = token[path[t.size()]];
      if (owner == kNone) owner = id;
      else vocab.Find(t, &owner);
      prev = t;
    }
    return true;
  }
};

namespace {

// The vocab's ids in the order their bytes lie in memory, or false when
// they do not fit the packed sort key. A vocab read from a file points
// into it, and writers keep tokens in byte order: sorting these integers
// costs a fraction of sorting the strings.
bool InMemoryOrder(const Vocab& vocab, std::vector<uint32_t>* ids) {
  if (vocab.id_limit() > (1u << 24)) return false;
  uintptr_t low = UINTPTR_MAX, high = 0;
  for (uint32_t id = 0; id < vocab.id_limit(); ++id) {
    const std::string_view t = vocab.Token(id);
    if (t.empty()) continue;
    low = std::min(low, reinterpret_cast<uintptr_t>(t.data()));
    high = std::max(high, reinterpret_cast<uintptr_t>(t.data()));
  }
  if (low <= high && high - low >= (uint64_t{1} << 40)) return false;
  std::vector<uint64_t> keys;  // offset << 24 | id
  keys.reserve(vocab.size());
  for (uint32_t id = 0; id < vocab.id_limit(); ++id) {
    const std::string_view t = vocab.Token(id);
    if (!t.empty()) keys.push_back(uint64_t{reinterpret_cast<uintptr_t>(t.data()) - low} << 24 | id);
  }
  std::sort(keys.begin(), keys.end());
  ids->resize(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) (*ids)[i] = static_cast<uint32_t>(keys[i] & 0xFFFFFF);
  return true;
}

}  // namespace

WordPieceTrie::WordPieceTrie(const Vocab& vocab) {
  // Built from the tokens in byte order: no edge lookups (a hash table of
  // edges was most of a cached bert load's first encode: megabytes
  // cleared, a miss per byte), and each node's children come out grouped
  // and sorted. The tokens' order in memory usually is byte order;
  // otherwise they are sorted by their bytes.
  Draft draft;
  std::vector<uint32_t> ids;
  if (!InMemoryOrder(vocab, &ids) || !draft.Build(vocab, ids)) {
    ids.clear();
    for (uint32_t id = 0; id < vocab.id_limit(); ++id) {
      if (!vocab.Token(id).empty()) ids.push_back(id);
    }
    SortByBytes(&ids, [&vocab](uint32_t id) { return vocab.Token(id); }, [](uint32_t a, uint32_t b) { return a < b; });
    draft.Build(vocab, ids);
  }
  const std::vector<uint32_t>& parent = draft.parent;
  const std::vector<uint32_t>& token = draft.token;
  const std::vector<uint8_t>& label = draft.label;
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
  std::vector<Node>& nodes = owned_nodes_;
  std::vector<uint8_t>& labels = owned_labels_;
  std::vector<uint32_t>& dense = owned_dense_;
  nodes.resize(n);
  labels.resize(n);
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t old = order[k];
    Node& node = nodes[k];
    node.token = token[old];
    node.first = static_cast<uint32_t>(order.size());
    node.count = start[old + 1] - start[old];
    for (uint32_t c = start[old]; c < start[old + 1]; ++c) {
      labels[order.size()] = label[kids[c]];
      order.push_back(kids[c]);
    }
    if (node.count > kDenseFrom) {
      node.dense = static_cast<uint32_t>(dense.size());
      dense.resize(dense.size() + 256, kNone);
      for (uint32_t c = 0; c < node.count; ++c) dense[node.dense + labels[node.first + c]] = node.first + c;
    }
  }
  labels.resize(n + kLabelPad, 0);
  nodes_ = nodes.data();
  labels_ = labels.data();
  dense_ = dense.data();
  node_count_ = static_cast<uint32_t>(n);
  dense_count_ = static_cast<uint32_t>(dense.size());
  label_count_ = static_cast<uint32_t>(labels.size());
}

// WTRI: [u32 node_count][u32 dense_count][u32 label_count][u32 0], the
// nodes (4 x u32 each), the dense tables (u32), then the labels (bytes,
// zero-padded to a multiple of 4).
std::string WordPieceTrie::Payload() const {
  const uint32_t head[4] = {node_count_, dense_count_, label_count_, 0};
  std::string out(reinterpret_cast<const char*>(head), sizeof(head));
  out.append(reinterpret_cast<const char*>(nodes_), size_t{node_count_} * sizeof(Node));
  if (dense_count_ > 0) out.append(reinterpret_cast<const char*>(dense_), size_t{dense_count_} * 4);
  out.append(reinterpret_cast<const char*>(labels_), label_count_);
  out.resize((out.size() + 3) & ~size_t{3}, '\0');
  return out;
}

Status WordPieceTrie::Parse(std::string_view payload, uint32_t id_limit, WordPieceTrie* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section WTRI: " + what); };
  if (payload.size() < 16) return fail("too short");
  if (reinterpret_cast<uintptr_t>(payload.data()) % 4 != 0) return fail("payload is not 4-byte aligned");
  uint32_t head[4];
  std::memcpy(head, payload.data(), sizeof(head));
  const uint32_t nodes = head[0], dense = head[1], labels = head[2];
  const uint64_t size = 16 + uint64_t{nodes} * sizeof(Node) + uint64_t{dense} * 4 + labels;
  if (nodes == 0 || head[3] != 0) return fail("bad header");
  // Child reads kLabelPad labels from a node's first child on.
  if (labels < uint64_t{nodes} + kLabelPad) return fail("labels do not cover every node");
  if (((size + 3) & ~uint64_t{3}) != payload.size()) return fail("size does not match its counts");
  if (dense % 256 != 0) return fail("dense tables are not 256 entries each");
  const auto* node = reinterpret_cast<const Node*>(payload.data() + 16);
  const auto* table = reinterpret_cast<const uint32_t*>(payload.data() + 16 + size_t{nodes} * sizeof(Node));
  for (uint32_t v = 0; v < nodes; ++v) {
    const Node& n = node[v];
    if (n.token != kNone && n.token >= id_limit)
      return fail("node " + std::to_string(v) + " holds token id " + std::to_string(n.token) +
                  ", past the vocab's " + std::to_string(id_limit));
    if (n.dense != kNone ? dense == 0 || n.dense % 256 != 0 || n.dense > dense - 256
                         : n.count > kDenseFrom || n.first > nodes || n.count > nodes - n.first)
      return fail("node " + std::to_string(v) + " has children out of range");
  }
  for (uint32_t k = 0; k < dense; ++k) {
    if (table[k] != kNone && table[k] >= nodes) return fail("a dense table names a node out of range");
  }
  *out = WordPieceTrie();
  out->nodes_ = node;
  out->dense_ = table;
  out->labels_ = reinterpret_cast<const uint8_t*>(table + dense);
  out->node_count_ = nodes;
  out->dense_count_ = dense;
  out->label_count_ = labels;
  return Status::Ok();
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
