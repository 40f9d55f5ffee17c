#include <algorithm>

#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {

void SplitPattern::FindAll(std::string_view text,
                           std::vector<std::pair<size_t, size_t>>* out) const {
  out->clear();
  if (scanner) {
    scanner->FindAll(text, out);
    return;
  }
  if (regex) {
    ThrowIfError(regex->FindAll(text, out));
    return;
  }
  if (literal.empty()) return;
  for (size_t at = text.find(literal); at != std::string_view::npos;
       at = text.find(literal, at + literal.size())) {
    out->emplace_back(at, at + literal.size());
  }
}

void SplitPiece(const Piece& p, const std::vector<std::pair<size_t, size_t>>& matches,
                SplitBehavior behavior, bool invert, std::vector<Piece>* out) {
  // Cover the text with (range, is_match) parts, as HF's find_matches does.
  struct Part { size_t b, e; bool match; };
  std::vector<Part> parts;
  size_t prev = 0;
  for (auto [b, e] : matches) {
    if (prev != b) parts.push_back({prev, b, false});
    parts.push_back({b, e, true});
    prev = e;
  }
  if (prev != p.text.size() || p.text.empty()) parts.push_back({prev, p.text.size(), false});
  if (invert) {
    for (Part& x : parts) x.match = !x.match;
  }

  // Apply the behaviour; `keep` parts become pieces.
  std::vector<Part> keep;
  bool previous_match = false;
  switch (behavior) {
    case SplitBehavior::kRemoved:
      for (const Part& x : parts) {
        if (!x.match) keep.push_back(x);
      }
      break;
    case SplitBehavior::kIsolated:
      keep = parts;
      break;
    case SplitBehavior::kMergedWithPrevious:
      for (const Part& x : parts) {
        if (x.match && !previous_match && !keep.empty()) {
          keep.back().e = x.e;
        } else {
          keep.push_back(x);
        }
        previous_match = x.match;
      }
      break;
    case SplitBehavior::kMergedWithNext:
      for (size_t k = parts.size(); k-- > 0;) {
        const Part& x = parts[k];
        if (x.match && !previous_match && !keep.empty()) {
          keep.back().b = x.b;
        } else {
          keep.push_back(x);
        }
        previous_match = x.match;
      }
      std::reverse(keep.begin(), keep.end());
      break;
    case SplitBehavior::kContiguous:
      for (const Part& x : parts) {
        if (x.match == previous_match && !keep.empty()) {
          keep.back().e = x.e;
        } else {
          keep.push_back(x);
        }
        previous_match = x.match;
      }
      break;
  }
  for (const Part& x : keep) {
    if (x.e > x.b) out->push_back(SubPiece(p, x.b, x.e));
  }
}

namespace {

class SplitPreTokenizer : public PreTokenizer {
 public:
  SplitPreTokenizer(SplitPattern pattern, SplitBehavior behavior, bool invert)
      : pattern_(std::move(pattern)), behavior_(behavior), invert_(invert) {}
  void Apply(std::vector<Piece>* pieces) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    SplitEach(pieces, [&](const Piece& p, std::vector<Piece>* out) {
      pattern_.FindAll(p.text, &matches);
      SplitPiece(p, matches, behavior_, invert_, out);
    });
  }
  void Describe(std::vector<PreTokenizerStage>* out) const override {
    if (pattern_.regex || pattern_.scanner) {
      out->push_back(SplitShape{pattern_.regex.get(), pattern_.scanner.get(), behavior_, invert_});
    } else {
      out->push_back(OtherStage{});  // a literal pattern: no route takes it
    }
  }

 private:
  SplitPattern pattern_;
  SplitBehavior behavior_;
  bool invert_;
};

}  // namespace

PreTokenizerPtr MakeSplitPreTokenizer(SplitPattern pattern, SplitBehavior behavior, bool invert) {
  return std::make_unique<SplitPreTokenizer>(std::move(pattern), behavior, invert);
}

}  // namespace mtok
