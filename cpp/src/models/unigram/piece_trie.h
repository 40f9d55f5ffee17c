// The pieces a Unigram lattice may use, sorted by bytes. A common-prefix
// search narrows a range of the sorted array one byte at a time, so it needs
// no structure beyond the array. (A faster trie is a separate piece of work.)
#pragma once
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace mtok {

struct TriePiece {
  std::string_view token;
  uint32_t id;
  double score;
  bool user_defined;
};

class PieceTrie {
 public:
  // Takes pieces in any order; for equal tokens the last one wins.
  explicit PieceTrie(std::vector<TriePiece> pieces);

  // Calls fn(piece) for every piece that is a prefix of s, shortest first.
  template <typename Fn>
  void ForEachPrefix(std::string_view s, Fn fn) const {
    size_t lo = 0, hi = sorted_.size();
    for (size_t k = 0; k < s.size() && lo < hi; ++k) {
      const int c = static_cast<uint8_t>(s[k]);
      auto key = [k](const TriePiece& p) {
        return p.token.size() > k ? static_cast<int>(static_cast<uint8_t>(p.token[k])) : -1;
      };
      auto first = sorted_.begin() + lo, last = sorted_.begin() + hi;
      first = std::lower_bound(first, last, c, [&](const TriePiece& p, int v) { return key(p) < v; });
      last = std::upper_bound(first, last, c, [&](int v, const TriePiece& p) { return v < key(p); });
      lo = first - sorted_.begin();
      hi = last - sorted_.begin();
      if (lo < hi && sorted_[lo].token.size() == k + 1) fn(sorted_[lo]);
    }
  }
  // The piece equal to s, or null.
  const TriePiece* Find(std::string_view s) const;

 private:
  std::vector<TriePiece> sorted_;
};

}  // namespace mtok
