#include "models/unigram/piece_trie.h"

namespace mtok {

PieceTrie::PieceTrie(std::vector<TriePiece> pieces) : sorted_(std::move(pieces)) {
  std::stable_sort(sorted_.begin(), sorted_.end(),
                   [](const TriePiece& a, const TriePiece& b) { return a.token < b.token; });
  // Keep the last of equal tokens (HF's token -> id map keeps the last id).
  std::vector<TriePiece> unique;
  unique.reserve(sorted_.size());
  for (const TriePiece& p : sorted_) {
    if (!unique.empty() && unique.back().token == p.token) {
      unique.back() = p;
    } else {
      unique.push_back(p);
    }
  }
  sorted_.swap(unique);
}

const TriePiece* PieceTrie::Find(std::string_view s) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), s,
                             [](const TriePiece& p, std::string_view v) { return p.token < v; });
  return it != sorted_.end() && it->token == s ? &*it : nullptr;
}

}  // namespace mtok
