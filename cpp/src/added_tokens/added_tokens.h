// Added tokens: matched in the text before the model runs, with HF's
// leftmost-longest rule and its lstrip / rstrip / single_word flags.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "common/flat_hash.h"
#include "common/hash_index.h"
#include "pipeline.h"

namespace mtok {

struct AddedToken {
  uint32_t id;
  std::string_view content;
  bool special = false, lstrip = false, rstrip = false;
  bool single_word = false, normalized = false;
};

struct TextSegment {
  size_t begin, end;
  int64_t added_id;  // -1: text for the pipeline
};

// A byte trie over a set of token strings, for leftmost-longest matching.
class TokenMatcher {
 public:
  // Room for `edges` edges in all, so adding them does not regrow the table.
  void Reserve(size_t edges);
  void Add(std::string_view pattern, uint32_t token_index);
  bool empty() const { return token_.size() <= 1; }
  // Longest pattern starting at text[pos] whose token passes `allowed`
  // (indexed by token index; null = all); returns its length (0 = none).
  size_t LongestAt(std::string_view text, size_t pos, const std::vector<bool>* allowed,
                   uint32_t* token_index) const;
  // Where the next match may start at or after `pos` (text.size() if nowhere).
  size_t NextCandidate(std::string_view text, size_t pos) const {
    if (only_first_ >= 0) {  // usually '<' or '[': memchr skips the text between
      const void* hit = std::memchr(text.data() + pos, only_first_, text.size() - pos);
      return hit ? static_cast<size_t>(static_cast<const char*>(hit) - text.data()) : text.size();
    }
    while (pos < text.size() && !first_[static_cast<unsigned char>(text[pos])]) ++pos;
    return pos;
  }

 private:
  static constexpr uint64_t kFree = ~uint64_t{0};
  // The slot of edge `key`: its own, or the free one where it would go.
  size_t Slot(uint64_t key) const {
    size_t i = Mix64(key) & (keys_.size() - 1);
    while (keys_[i] != key && keys_[i] != kFree) i = (i + 1) & (keys_.size() - 1);
    return i;
  }
  void Rehash(size_t capacity);

  // Trie edges in one flat open-addressing table: the key (node << 8 |
  // byte) and the child node in parallel arrays, 12 bytes a slot, found and
  // inserted with one probe. No allocation per node: a file with thousands
  // of added tokens builds them at every load.
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> children_;
  size_t edges_ = 0;
  std::vector<int64_t> token_{-1};  // per node: token index ending here, or -1
  // The pattern added last and the nodes along it (path_[k]: after k bytes).
  std::string last_;
  std::vector<uint32_t> path_{0};
  bool first_[256] = {};
  int only_first_ = -1;  // the one byte every pattern starts with, if so
  bool any_ = false;     // a pattern was added
};

class AddedVocabulary {
 public:
  // `normalized_forms[i]` is tokens[i].content after the normalizer (used for
  // tokens with normalized = true).
  AddedVocabulary(std::vector<AddedToken> tokens, std::vector<std::string> normalized_forms);
  // by_content_'s slots point into its own storage: a copy would view the original's.
  AddedVocabulary(const AddedVocabulary&) = delete;
  AddedVocabulary& operator=(const AddedVocabulary&) = delete;

  // Splits pieces on added tokens. `normalized` selects which group is
  // matched: HF first matches non-normalized tokens on the raw text, then
  // normalized tokens on each normalized segment.
  // `allowed` (by token index, null = all) limits which tokens can match.
  void Split(std::vector<Piece>* pieces, bool normalized, const std::vector<bool>* allowed) const;

  // The same split without copying: the runs of `text` between added
  // tokens (added_id -1) and the added tokens, as byte ranges. For the ids
  // fast path; *out is reused.
  void Segments(std::string_view text, bool normalized, const std::vector<bool>* allowed,
                std::vector<TextSegment>* out) const;
  bool has_normalized() const { return !norm_.empty(); }

  // Token-index mask of the given ids (ids that are not added tokens are ignored).
  std::vector<bool> MaskOf(const std::vector<uint32_t>& ids) const;

  const std::vector<AddedToken>& tokens() const { return tokens_; }
  const AddedToken* ById(uint32_t id) const;
  // What HF's id_to_token gives for an added token: its content, or for a
  // normalized one its content after the normalizer. Null data: no such id.
  std::string_view IdText(uint32_t id) const;
  const AddedToken* ByContent(std::string_view content) const;
  bool IsSpecialContent(std::string_view token) const;

 private:
  template <typename Text, typename Added>
  void Walk(std::string_view s, const TokenMatcher& m, const std::vector<bool>* allowed, Text text,
            Added added) const;
  void SplitOne(const Piece& p, const TokenMatcher& m, const std::vector<bool>* allowed,
                std::vector<Piece>* out) const;

  std::vector<AddedToken> tokens_;
  std::vector<std::string> normalized_forms_;
  TokenMatcher raw_, norm_;
  // The index into tokens_ of an id; of a content. Flat tables, the first
  // token of an id or a content kept: built at every load.
  bool IndexOfId(uint32_t id, uint32_t* index) const {
    uint32_t unused;
    return by_id_.Find(id, index, &unused);
  }
  std::string_view ContentOf(uint32_t index) const { return tokens_[index].content; }
  PairMap by_id_;          // id -> (index, unused)
  HashIndex by_content_;   // over token indices, keyed by content
};

}  // namespace mtok
