#include "common/hf_char_classes.h"
#include "pre_tokenizers/char_matches.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

// HF Punctuation: splits on each punctuation character (ASCII or Unicode 8.0
// P*, as BertPreTokenizer) with the given behaviour.
class PunctuationPreTokenizer : public PreTokenizer {
 public:
  explicit PunctuationPreTokenizer(SplitBehavior behavior) : behavior_(behavior) {}
  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      CharMatches(p.text, unicode::IsBertPunctuation, &matches);
      SplitPiece(p, matches, behavior_, false, out);
    });
  }

 private:
  SplitBehavior behavior_;
};

}  // namespace

PreTokenizerPtr MakePunctuationPreTokenizer(SplitBehavior behavior) {
  return std::make_unique<PunctuationPreTokenizer>(behavior);
}

}  // namespace mtok
