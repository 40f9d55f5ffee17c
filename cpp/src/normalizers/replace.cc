#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// Rebuilds p with every [begin, end) match replaced by `content`. As in HF
// (NormalizedString::replace), the replacement is "inserted" after the
// removed text and aligns with its last character.
void ReplaceMatches(Piece* p, const std::vector<std::pair<size_t, size_t>>& matches,
                    const std::string& content) {
  if (matches.empty()) return;
  PieceBuilder b(!p->align.empty());
  size_t last = 0;
  for (auto [mb, me] : matches) {
    b.Copy(*p, last, mb);
    Span src{};
    if (b.track() && me > 0) src = p->align[me - 1];
    else if (b.track() && !p->align.empty()) src = Span{p->align[0].begin, p->align[0].begin};
    b.Append(content, src);
    last = me;
  }
  b.Copy(*p, last, p->text.size());
  Piece out = b.Take();
  p->text.swap(out.text);
  p->align.swap(out.align);
}

// HF Replace with a String pattern: literal, non-overlapping, left to right.
class LiteralReplace : public Normalizer {
 public:
  LiteralReplace(std::string pattern, std::string content)
      : pattern_(std::move(pattern)), content_(std::move(content)) {}
  void Normalize(Piece* p) const override {
    if (pattern_.empty()) return;
    std::vector<std::pair<size_t, size_t>> matches;
    for (size_t at = p->text.find(pattern_); at != std::string::npos;
         at = p->text.find(pattern_, at + pattern_.size())) {
      matches.emplace_back(at, at + pattern_.size());
    }
    ReplaceMatches(p, matches, content_);
  }

 private:
  std::string pattern_, content_;
};

class RegexReplace : public Normalizer {
 public:
  RegexReplace(std::unique_ptr<Regex> re, std::string content)
      : re_(std::move(re)), content_(std::move(content)) {}
  void Normalize(Piece* p) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    ThrowIfError(re_->FindAll(p->text, &matches));
    ReplaceMatches(p, matches, content_);
  }

 private:
  std::unique_ptr<Regex> re_;
  std::string content_;
};

}  // namespace

NormalizerPtr MakeReplaceNormalizer(std::string pattern, std::string content) {
  return std::make_unique<LiteralReplace>(std::move(pattern), std::move(content));
}
NormalizerPtr MakeRegexReplaceNormalizer(std::unique_ptr<Regex> pattern, std::string content) {
  return std::make_unique<RegexReplace>(std::move(pattern), std::move(content));
}

}  // namespace mtok
