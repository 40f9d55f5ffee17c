#include "common/utf8.h"
#include "pre_tokenizers/char_matches.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

// HF Metaspace: spaces become the replacement, which is prepended as the
// scheme says, then each replacement starts a new piece (split = true).
class MetaspacePreTokenizer : public PreTokenizer {
 public:
  MetaspacePreTokenizer(char32_t replacement, PrependScheme scheme, bool split)
      : replacement_(replacement), scheme_(scheme), split_(split) {
    utf8::append(rep_, replacement);
  }

  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      if (p.text.empty()) return;
      PieceBuilder b(!p.align.empty());
      const std::string_view rep = rep_;
      bool prepend = scheme_ == PrependScheme::kAlways ||
                     (scheme_ == PrependScheme::kFirst && p.at_input_start);
      // HF checks for a leading replacement after spaces became replacements.
      const bool starts = p.text[0] == ' ' || p.text.compare(0, rep.size(), rep) == 0;
      if (prepend && !starts) b.Append(rep, b.SpanOf(p, 0, 1));
      for (size_t i = 0; i < p.text.size(); ++i) {
        if (p.text[i] == ' ') {
          b.Append(rep, b.SpanOf(p, i, i + 1));
        } else {
          b.Copy(p, i, i + 1);
        }
      }
      Piece q = b.Take();
      q.word = p.word;
      q.at_input_start = p.at_input_start;
      if (!split_) {
        out->push_back(std::move(q));
        return;
      }
      CharMatches(q.text, [this](char32_t c) { return c == replacement_; }, &matches);
      SplitPiece(q, matches, SplitBehavior::kMergedWithNext, false, out);
    });
  }

  void Describe(std::vector<PreTokenizerStage>* out) const override {
    out->push_back(MetaspaceShape{replacement_, scheme_, split_});
  }

 private:
  char32_t replacement_;
  std::string rep_;
  PrependScheme scheme_;
  bool split_;
};

}  // namespace

PreTokenizerPtr MakeMetaspacePreTokenizer(char32_t replacement, PrependScheme scheme, bool split) {
  return std::make_unique<MetaspacePreTokenizer>(replacement, scheme, split);
}

}  // namespace mtok
