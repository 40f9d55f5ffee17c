#include "pre_tokenizers/char_matches.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

// HF CharDelimiterSplit: removes each delimiter character, splitting there.
class CharDelimiterPreTokenizer : public PreTokenizer {
 public:
  explicit CharDelimiterPreTokenizer(char32_t delimiter) : delimiter_(delimiter) {}
  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      CharMatches(p.text, [this](char32_t c) { return c == delimiter_; }, &matches);
      SplitPiece(p, matches, SplitBehavior::kRemoved, false, out);
    });
  }

 private:
  char32_t delimiter_;
};

}  // namespace

PreTokenizerPtr MakeCharDelimiterPreTokenizer(char32_t delimiter) {
  return std::make_unique<CharDelimiterPreTokenizer>(delimiter);
}

}  // namespace mtok
