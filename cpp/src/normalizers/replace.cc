#include "common/scratch.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// Rebuilds p with every [begin, end) match replaced by `content`. As in HF
// (NormalizedString::replace), the replacement is "inserted" after the
// removed text and aligns with its last character.
void ReplaceMatches(Piece* p, const std::vector<std::pair<size_t, size_t>>& matches,
                    const std::string& content) {
  if (matches.empty()) return;
  if (p->align.empty()) {
    thread_local std::string out;  // trades places with the piece's buffer
    out.clear();
    size_t last = 0;
    for (auto [mb, me] : matches) {
      out.append(p->text, last, mb - last);
      out.append(content);
      last = me;
    }
    out.append(p->text, last, std::string::npos);
    p->text.swap(out);
    TrimScratch(out);
    return;
  }
  PieceBuilder b(true);
  size_t last = 0;
  for (auto [mb, me] : matches) {
    b.Copy(*p, last, mb);
    const Span src = me > 0 ? p->align[me - 1] : Span{p->align[0].begin, p->align[0].begin};
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
    thread_local std::vector<std::pair<size_t, size_t>> matches;
    matches.clear();
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

// A regex Replace whose pattern is one ASCII letter, digit or space
// repeated at least `min` times ("` {2,}`", XLM-R's space collapsing): the
// regex's leftmost-greedy matches are exactly the runs of that byte at
// least `min` long, found here without the regex engine.
class RunReplace : public Normalizer {
 public:
  RunReplace(char c, size_t min, std::string content) : c_(c), min_(min), content_(std::move(content)) {}
  void Normalize(Piece* p) const override {
    thread_local std::vector<std::pair<size_t, size_t>> matches;
    matches.clear();
    const std::string& t = p->text;
    for (size_t at = t.find(c_); at != std::string::npos; at = t.find(c_, at)) {
      size_t end = at;
      while (end < t.size() && t[end] == c_) ++end;
      if (end - at >= min_) matches.emplace_back(at, end);
      at = end;
    }
    ReplaceMatches(p, matches, content_);
  }
  void Describe(std::vector<NormalizerStage>* out) const override {
    out->push_back(RunReplaceShape{c_, min_, content_});
  }

 private:
  char c_;
  size_t min_;
  std::string content_;
};

}  // namespace

bool ParseRunPattern(std::string_view pattern, char* c, size_t* min) {
  // X{n,} with X in [A-Za-z0-9 ] and 1 <= n <= 99.
  if (pattern.size() < 5 || pattern.size() > 6 || pattern[1] != '{' || pattern.substr(pattern.size() - 2) != ",}")
    return false;
  const char x = pattern[0];
  const bool plain = x == ' ' || (x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || (x >= '0' && x <= '9');
  if (!plain) return false;
  size_t n = 0;
  for (char d : pattern.substr(2, pattern.size() - 4)) {
    if (d < '0' || d > '9') return false;
    n = n * 10 + static_cast<size_t>(d - '0');
  }
  if (n == 0) return false;
  *c = x;
  *min = n;
  return true;
}

NormalizerPtr MakeRunReplaceNormalizer(char c, size_t min, std::string content) {
  return std::make_unique<RunReplace>(c, min, std::move(content));
}

NormalizerPtr MakeReplaceNormalizer(std::string pattern, std::string content) {
  return std::make_unique<LiteralReplace>(std::move(pattern), std::move(content));
}
NormalizerPtr MakeRegexReplaceNormalizer(std::unique_ptr<Regex> pattern, std::string content) {
  return std::make_unique<RegexReplace>(std::move(pattern), std::move(content));
}

}  // namespace mtok
