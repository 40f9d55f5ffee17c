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
};

// HF Whitespace: the matches of `\w+|[^\w\s]+` (Oniguruma classes), i.e.
// maximal runs of word characters and runs of other non-space characters.
class WhitespacePreTokenizer : public PreTokenizer {
 public:
  void Apply(std::vector<Piece>* pieces) const override {
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      enum Kind { kSpace, kWord, kOther };
      auto kind_of = [](char32_t c) {
        if (unicode::is_word(c)) return kWord;
        return unicode::is_white_space(c) ? kSpace : kOther;
      };
      size_t run = 0;
      Kind run_kind = kSpace;
      for (size_t i = 0; i <= p.text.size();) {
        int len = 1;
        Kind k = kSpace;
        if (i < p.text.size()) k = kind_of(utf8::decode(p.text, i, &len));
        if (i == p.text.size() || k != run_kind) {
          if (run_kind != kSpace && i > run) out->push_back(SubPiece(p, run, i));
          run = i;
          run_kind = k;
        }
        i += len;
      }
    });
  }
};

}  // namespace

PreTokenizerPtr MakeWhitespaceSplitPreTokenizer() {
  return std::make_unique<WhitespaceSplitPreTokenizer>();
}
PreTokenizerPtr MakeWhitespacePreTokenizer() { return std::make_unique<WhitespacePreTokenizer>(); }

}  // namespace mtok
