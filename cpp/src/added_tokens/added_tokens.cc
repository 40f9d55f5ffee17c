#include "added_tokens/added_tokens.h"

#include <algorithm>

#include "common/unicode.h"
#include "common/utf8.h"

namespace mtok {

void TokenMatcher::Add(std::string_view pattern, uint32_t token_index) {
  if (pattern.empty()) return;
  uint32_t node = 0, child, unused;
  for (unsigned char b : pattern) {
    uint64_t key = (uint64_t(node) << 8) | b;
    if (edges_.Find(key, &child, &unused)) {
      node = child;
      continue;
    }
    child = static_cast<uint32_t>(token_.size());
    token_.push_back(-1);
    edges_.Insert(key, child, 0);
    node = child;
  }
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
  uint32_t node = 0, unused;
  size_t best = 0;
  for (size_t i = pos; i < text.size(); ++i) {
    if (!edges_.Find((uint64_t(node) << 8) | static_cast<unsigned char>(text[i]), &node, &unused)) break;
    int64_t tok = token_[node];
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
  for (size_t i = 0; i < tokens_.size(); ++i) {
    const AddedToken& t = tokens_[i];
    by_id_.emplace(t.id, i);
    by_content_.emplace(t.content, i);
    if (t.normalized) norm_.Add(normalized_forms_[i], static_cast<uint32_t>(i));
    else raw_.Add(t.content, static_cast<uint32_t>(i));
  }
}

const AddedToken* AddedVocabulary::ById(uint32_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &tokens_[it->second];
}

std::string_view AddedVocabulary::IdText(uint32_t id) const {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return {};
  const AddedToken& t = tokens_[it->second];
  return t.normalized ? std::string_view(normalized_forms_[it->second]) : t.content;
}

const AddedToken* AddedVocabulary::ByContent(std::string_view content) const {
  auto it = by_content_.find(content);
  return it == by_content_.end() ? nullptr : &tokens_[it->second];
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
    auto it = by_id_.find(id);
    if (it != by_id_.end()) mask[it->second] = true;
  }
  return mask;
}

}  // namespace mtok
