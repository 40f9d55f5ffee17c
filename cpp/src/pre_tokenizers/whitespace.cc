#include "common/unicode.h"
#include "pre_tokenizers/char_matches.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

// HF WhitespaceSplit: removes White_Space characters, splitting there.
class WhitespaceSplitPreTokenizer : public PreTokenizer {
 public:
  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      CharMatches(p.text, unicode::is_white_space, &matches);
      SplitPiece(p, matches, SplitBehavior::kRemoved, false, out);
    });
  }
  void Describe(std::vector<PreTokenizerStage>* out) const override {
    out->push_back(WhitespaceSplitShape{});
  }
};

// HF Whitespace: keeps the matches of `\w+|[^\w\s]+` (an Oniguruma regex,
// compiled by the caller) and drops the rest.
class WhitespacePreTokenizer : public PreTokenizer {
 public:
  explicit WhitespacePreTokenizer(std::unique_ptr<Regex> re) : re_(std::move(re)) {}
  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      matches.clear();  // FindAll appends
      ThrowIfError(re_->FindAll(p.text, &matches));
      SplitPiece(p, matches, SplitBehavior::kRemoved, /*invert=*/true, out);
    });
  }

 private:
  std::unique_ptr<Regex> re_;
};

}  // namespace

PreTokenizerPtr MakeWhitespaceSplitPreTokenizer() {
  return std::make_unique<WhitespaceSplitPreTokenizer>();
}
PreTokenizerPtr MakeWhitespacePreTokenizer(std::unique_ptr<Regex> pattern) {
  return std::make_unique<WhitespacePreTokenizer>(std::move(pattern));
}

}  // namespace mtok
