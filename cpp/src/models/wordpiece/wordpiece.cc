#include "models/wordpiece/wordpiece.h"

#include <algorithm>

#include "common/utf8.h"

namespace mtok {
namespace {

class WordPieceModel : public Model {
 public:
  WordPieceModel(Vocab vocab, WordPieceOptions opt) : vocab_(std::move(vocab)), opt_(std::move(opt)) {
    for (uint32_t id = 0; id < vocab_.id_limit(); ++id) longest_ = std::max(longest_, vocab_.Token(id).size());
  }

  void Tokenize(const Piece& p, std::vector<Token>* out) const override {
    const std::string_view s = p.text;
    const uint32_t n = static_cast<uint32_t>(s.size());
    if (utf8::count_chars(s) > opt_.max_input_chars_per_word) {
      out->push_back({opt_.unk_id, 0, n});
      return;
    }
    const size_t first = out->size();
    std::string candidate;
    for (size_t start = 0; start < s.size();) {
      // No candidate longer than the longest token can match: start from
      // there (a character boundary at or below it), which bounds a long
      // word's cost by its length times the longest token.
      const size_t prefix = start > 0 ? opt_.continuing_subword_prefix.size() : 0;
      const size_t room = longest_ >= prefix ? longest_ - prefix : 0;
      size_t end = std::min(s.size(), start + room);
      while (end > start && end < s.size() && (static_cast<uint8_t>(s[end]) & 0xC0) == 0x80) --end;
      bool found = false;
      uint32_t id = 0;
      while (start < end) {
        candidate.clear();
        if (start > 0) candidate += opt_.continuing_subword_prefix;
        candidate.append(s.substr(start, end - start));
        if (vocab_.Find(candidate, &id)) {
          found = true;
          break;
        }
        // Drop the last character.
        do {
          --end;
        } while (end > start && (static_cast<uint8_t>(s[end]) & 0xC0) == 0x80);
      }
      if (!found) {
        out->resize(first);
        out->push_back({opt_.unk_id, 0, n});
        return;
      }
      out->push_back({id, static_cast<uint32_t>(start), static_cast<uint32_t>(end)});
      start = end;
    }
  }

  std::string_view IdToToken(uint32_t id) const override { return vocab_.TokenText(id); }
  bool TokenToId(std::string_view token, uint32_t* id) const override {
    return vocab_.Find(token, id);
  }
  uint32_t VocabSize() const override { return vocab_.size(); }
  uint32_t IdLimit() const override { return vocab_.id_limit(); }

 private:
  Vocab vocab_;
  WordPieceOptions opt_;
  size_t longest_ = 0;  // bytes of the longest vocab token
};

}  // namespace

std::unique_ptr<Model> MakeWordPieceModel(Vocab vocab, WordPieceOptions options) {
  return std::make_unique<WordPieceModel>(std::move(vocab), std::move(options));
}

}  // namespace mtok
