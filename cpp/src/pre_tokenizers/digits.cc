#include "common/unicode.h"
#include "common/utf8.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

// HF Digits: isolates numeric characters (Rust char::is_numeric, i.e. the N
// categories), one by one or as runs.
class DigitsPreTokenizer : public PreTokenizer {
 public:
  explicit DigitsPreTokenizer(bool individual) : individual_(individual) {}
  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    SplitEach(pieces, [&](const Piece& p, std::vector<Piece>* out) {
      matches.clear();
      for (size_t i = 0; i < p.text.size();) {
        int len;
        char32_t cp = utf8::decode(p.text, i, &len);
        if (unicode::is_number(cp)) matches.emplace_back(i, i + len);
        i += len;
      }
      SplitPiece(p, matches, individual_ ? SplitBehavior::kIsolated : SplitBehavior::kContiguous,
                 false, out);
    });
  }

 private:
  bool individual_;
};

}  // namespace

PreTokenizerPtr MakeDigitsPreTokenizer(bool individual_digits) {
  return std::make_unique<DigitsPreTokenizer>(individual_digits);
}

}  // namespace mtok
