#include "common/byte_level.h"
#include "common/utf8.h"
#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// ByteLevel's built-in split regex always has a scanner, so the regex is
// never compiled.
const Scanner* Gpt2Scanner() {
  static const std::unique_ptr<Scanner> s = Scanner::ForPattern(kGpt2Pattern, RegexDialect::kOniguruma);
  return s.get();
}

// Maps every byte of p to its byte-level character (HF ByteLevel).
Piece MapBytes(const Piece& p) {
  const auto& t = byte_level::tables();
  Piece out;
  out.word = p.word;
  out.text.reserve(p.text.size() * 2);
  bool track = !p.align.empty();
  for (size_t i = 0; i < p.text.size(); ++i) {
    size_t before = out.text.size();
    utf8::append(out.text, t.byte_to_char[static_cast<unsigned char>(p.text[i])]);
    if (track) out.align.insert(out.align.end(), out.text.size() - before, p.align[i]);
  }
  return out;
}

class ByteLevelPreTokenizer : public PreTokenizer {
 public:
  ByteLevelPreTokenizer(bool add_prefix_space, bool use_regex)
      : add_prefix_space_(add_prefix_space), use_regex_(use_regex) {}

  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    std::vector<Piece> split;
    SplitEach(pieces, [&](Piece& p, std::vector<Piece>* out) {
      if (add_prefix_space_ && (p.text.empty() || p.text[0] != ' ')) {
        // HF prepends only to non-empty text (NormalizedString::prepend).
        if (!p.text.empty()) {
          if (!p.align.empty()) p.align.insert(p.align.begin(), p.align.front());
          p.text.insert(0, " ");
        }
      }
      split.clear();
      if (use_regex_) {
        matches.clear();  // FindAll appends
        Gpt2Scanner()->FindAll(p.text, &matches);
        SplitPiece(p, matches, SplitBehavior::kIsolated, false, &split);
      } else if (!p.text.empty()) {
        split.push_back(std::move(p));
      }
      for (const Piece& s : split) out->push_back(MapBytes(s));
    });
  }
  void Describe(std::vector<PreTokenizerStage>* out) const override {
    out->push_back(ByteLevelShape{add_prefix_space_, use_regex_, use_regex_ ? Gpt2Scanner() : nullptr});
  }

 private:
  bool add_prefix_space_, use_regex_;
};

}  // namespace

PreTokenizerPtr MakeByteLevelPreTokenizer(bool add_prefix_space, bool use_regex) {
  return std::make_unique<ByteLevelPreTokenizer>(add_prefix_space, use_regex);
}

}  // namespace mtok
