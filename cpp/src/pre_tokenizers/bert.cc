#include "common/hf_char_classes.h"
#include "common/unicode.h"
#include "common/utf8.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

// HF BertPreTokenizer: split on White_Space (removed), then isolate every
// punctuation character (ASCII or Unicode 8.0 P*).
class BertPreTokenizer : public PreTokenizer {
 public:
  void Apply(std::vector<Piece>* pieces) const override {
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      size_t start = 0;
      for (size_t i = 0; i < p.text.size();) {
        int len;
        char32_t c = utf8::decode(p.text, i, &len);
        bool space = unicode::is_white_space(c);
        if (space || unicode::IsBertPunctuation(c)) {
          if (i > start) out->push_back(SubPiece(p, start, i));
          if (!space) out->push_back(SubPiece(p, i, i + len));
          start = i + len;
        }
        i += len;
      }
      if (p.text.size() > start) out->push_back(SubPiece(p, start, p.text.size()));
    });
  }
  void Describe(std::vector<PreTokenizerStage>* out) const override {
    out->push_back(BertPreTokenizerShape{});
  }
};

}  // namespace

PreTokenizerPtr MakeBertPreTokenizer() { return std::make_unique<BertPreTokenizer>(); }

}  // namespace mtok
