#include "added_tokens/added_tokens.h"

#include <algorithm>

#include "common/unicode.h"
#include "common/utf8.h"

namespace mtok {

namespace {

// How many leading bytes a and b share.
size_t SharedPrefix(std::string_view a, std::string_view b) {
  const size_t most = std::min(a.size(), b.size());
  size_t n = 0;
  while (n < most && a[n] == b[n]) ++n;
  return n;
}

}  // namespace

void TokenMatcher::Reserve(size_t edges) {
  if (TableCapacity(edges) > keys_.size()) Rehash(TableCapacity(edges));
  token_.reserve(edges + 1);
}

void TokenMatcher::Rehash(size_t capacity) {
  std::vector<uint64_t> keys(capacity, kFree);
  std::vector<uint32_t> children(capacity);
  keys.swap(keys_);
  children.swap(children_);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] == kFree) continue;
    const size_t at = Slot(keys[i]);
    keys_[at] = keys[i];
    children_[at] = children[i];
  }
}

void TokenMatcher::Add(std::string_view pattern, uint32_t token_index) {
  if (pattern.empty()) return;
  // Files list added tokens in runs that share long prefixes (<unused0>,
  // <unused1>...): the walk starts where the previous pattern's path leaves
  // this one, not at the root.
  const size_t shared = SharedPrefix(pattern, last_);
  path_.resize(shared + 1);
  uint32_t node = path_[shared];
  for (unsigned char b : pattern.substr(shared)) {
    if ((edges_ + 1) * 2 > keys_.size()) Rehash(keys_.empty() ? 16 : keys_.size() * 2);
    const uint64_t key = (uint64_t{node} << 8) | b;
    const size_t at = Slot(key);
    if (keys_[at] == kFree) {
      keys_[at] = key;
      children_[at] = static_cast<uint32_t>(token_.size());
      token_.push_back(-1);
      ++edges_;
    }
    node = children_[at];
    path_.push_back(node);
  }
  last_.assign(pattern);
  // First writer wins: the same content twice keeps the earlier token.
  if (token_[node] < 0) token_[node] = token_index;
  const unsigned char b = static_cast<unsigned char>(pattern[0]);
  if (!any_) only_first_ = b;
  else if (only_first_ != b) only_first_ = -1;
  any_ = true;
  first_[b] = true;
}

size_t TokenMatcher::LongestAt(std::string_view text, size_t pos, const std::vector<bool>* allowed,
                               uint32_t* token_index) const {
  if (keys_.empty()) return 0;
  uint32_t node = 0;
  size_t best = 0;
  for (size_t i = pos; i < text.size(); ++i) {
    const size_t at = Slot((uint64_t{node} << 8) | static_cast<unsigned char>(text[i]));
    if (keys_[at] == kFree) break;
    node = children_[at];
    const int64_t tok = token_[node];
    if (tok >= 0 && (allowed == nullptr || (*allowed)[tok])) {
      best = i + 1 - pos;
      *token_index = static_cast<uint32_t>(tok);
    }
  }
  return best;
}

AddedVocabulary::AddedVocabulary(std::vector<AddedToken> tokens,
                                 std::vector<std::string> normalized_forms)
    : tokens_(std::move(tokens)), normalized_forms_(std::move(normalized_forms)) {
  // At most the bytes each pattern does not share with the one before it
  // are new edges: room for them, where doubling rehashed a dozen times.
  size_t edges[2] = {0, 0};
  std::string_view before[2];
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const bool n = tokens_[i].normalized;
    const std::string_view p = n ? std::string_view(normalized_forms_[i]) : tokens_[i].content;
    edges[n] += p.size() - SharedPrefix(p, before[n]);
    before[n] = p;
  }
  raw_.Reserve(edges[0]);
  norm_.Reserve(edges[1]);
  // Content "" is a key too (HashIndex skips keys without data).
  for (AddedToken& t : tokens_)
    if (t.content.data() == nullptr) t.content = std::string_view("", 0);
  by_content_.Build(static_cast<uint32_t>(tokens_.size()), [this](uint32_t k) { return ContentOf(k); });
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const AddedToken& t = tokens_[i];
    uint32_t first;
    if (!IndexOfId(t.id, &first)) by_id_.Insert(t.id, static_cast<uint32_t>(i), 0);
    if (t.normalized) norm_.Add(normalized_forms_[i], static_cast<uint32_t>(i));
    else raw_.Add(t.content, static_cast<uint32_t>(i));
  }
}

const AddedToken* AddedVocabulary::ById(uint32_t id) const {
  uint32_t i;
  return IndexOfId(id, &i) ? &tokens_[i] : nullptr;
}

std::string_view AddedVocabulary::IdText(uint32_t id) const {
  uint32_t i;
  if (!IndexOfId(id, &i)) return {};
  const AddedToken& t = tokens_[i];
  return t.normalized ? std::string_view(normalized_forms_[i]) : t.content;
}

const AddedToken* AddedVocabulary::ByContent(std::string_view content) const {
  uint32_t i;
  return by_content_.Find(content, [this](uint32_t k) { return ContentOf(k); }, &i) ? &tokens_[i] : nullptr;
}

bool AddedVocabulary::IsSpecialContent(std::string_view token) const {
  const AddedToken* t = ByContent(token);
  return t != nullptr && t->special;
}

namespace {

// Rust regex \w: alphabetic, marks, decimal numbers, connector punctuation,
// Join_Control.
bool IsWordChar(char32_t c) {
  using unicode::Category;
  Category k = unicode::category(c);
  return unicode::is_letter(c) || unicode::is_mark(c) || k == Category::Nd ||
         k == Category::Nl || k == Category::Pc || c == 0x200C || c == 0x200D;
}

bool EndsWithWord(std::string_view s) {
  if (s.empty()) return false;
  size_t k = s.size() - 1;
  while (k > 0 && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) --k;
  int len;
  return IsWordChar(utf8::decode(s, k, &len));
}

bool StartsWithWord(std::string_view s) {
  if (s.empty()) return false;
  int len;
  return IsWordChar(utf8::decode(s, 0, &len));
}

}  // namespace

// HF's split on added tokens: text(b, e) for each run between matches and
// added(b, e, id) for each match (widened by lstrip / rstrip), in order.
template <typename Text, typename Added>
void AddedVocabulary::Walk(std::string_view s, const TokenMatcher& m, const std::vector<bool>* allowed,
                           Text text, Added added) const {
  size_t start_offset = 0;
  size_t i = 0;
  while ((i = m.NextCandidate(s, i)) < s.size()) {
    uint32_t idx;
    size_t len = m.LongestAt(s, i, allowed, &idx);
    if (len == 0) {
      ++i;
      continue;
    }
    size_t start = i, stop = i + len;
    i = stop;  // the scan resumes after the match even when it is discarded
    const AddedToken& t = tokens_[idx];
    if (t.single_word) {
      bool start_space = start == 0 || !EndsWithWord(s.substr(0, start));
      bool stop_space = stop == s.size() || !StartsWithWord(s.substr(stop));
      if (!start_space || !stop_space) continue;
    }
    if (t.lstrip) {
      size_t b = start;
      while (b > 0) {
        size_t k = b - 1;
        while (k > 0 && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) --k;
        int l;
        if (!unicode::is_white_space(utf8::decode(s, k, &l))) break;
        b = k;
      }
      start = std::max(b, start_offset);
    }
    if (t.rstrip) {
      while (stop < s.size()) {
        int l;
        if (!unicode::is_white_space(utf8::decode(s, stop, &l))) break;
        stop += l;
      }
    }
    if (start_offset < start) text(start_offset, start);
    added(start, stop, t.id);
    start_offset = stop;
  }
  if (start_offset < s.size()) text(start_offset, s.size());
}

void AddedVocabulary::SplitOne(const Piece& p, const TokenMatcher& m,
                               const std::vector<bool>* allowed, std::vector<Piece>* out) const {
  Walk(
      p.text, m, allowed, [&](size_t b, size_t e) { out->push_back(SubPiece(p, b, e)); },
      [&](size_t b, size_t e, uint32_t id) {
        Piece tok = SubPiece(p, b, e);
        tok.added_id = id;
        out->push_back(std::move(tok));
      });
}

void AddedVocabulary::Segments(std::string_view text, bool normalized, const std::vector<bool>* allowed,
                               std::vector<TextSegment>* out) const {
  out->clear();
  const TokenMatcher& m = normalized ? norm_ : raw_;
  if (m.empty()) {
    if (!text.empty()) out->push_back({0, text.size(), -1});
    return;
  }
  Walk(
      text, m, allowed, [&](size_t b, size_t e) { out->push_back({b, e, -1}); },
      [&](size_t b, size_t e, uint32_t id) { out->push_back({b, e, id}); });
}

void AddedVocabulary::Split(std::vector<Piece>* pieces, bool normalized,
                            const std::vector<bool>* allowed) const {
  const TokenMatcher& m = normalized ? norm_ : raw_;
  if (m.empty()) return;
  SplitEach(pieces, [&](const Piece& p, std::vector<Piece>* out) { SplitOne(p, m, allowed, out); });
}

std::vector<bool> AddedVocabulary::MaskOf(const std::vector<uint32_t>& ids) const {
  std::vector<bool> mask(tokens_.size(), false);
  for (uint32_t id : ids) {
    uint32_t i;
    if (IndexOfId(id, &i)) mask[i] = true;
  }
  return mask;
}

}  // namespace mtok
