#include "common/grapheme.h"
#include "common/utf8.h"
#include "normalizers/normalizers.h"
#include "normalizers/transform.h"

namespace mtok {
namespace {

// HF's Precompiled: walks extended grapheme clusters; a cluster shorter than
// 6 bytes is replaced whole by the rule of its shortest matching prefix;
// otherwise each character is replaced by its own rule, if any.
class PrecompiledNormalizer : public Normalizer {
 public:
  explicit PrecompiledNormalizer(Charsmap map) : map_(map) {}

  void Normalize(Piece* p) const override {
    if (map_.empty() || p->text.empty()) return;
    // HF lists the output with change codes and lets transform() align it
    // (a rule with an empty replacement charges the removal to the previous
    // output character). Offsets must match, so the same is done here.
    std::vector<CharChange> dest;
    dest.reserve(p->text.size());
    bool changed = false;
    const std::string_view text = p->text;
    auto push_rule = [&](std::string_view old_part, std::string_view rep) {
      const int old_count = static_cast<int>(utf8::count_chars(old_part));
      int new_count = 0;
      for (size_t i = 0; i < rep.size(); ++new_count) {
        int len;
        dest.push_back({utf8::decode(rep, i, &len), 0});
        i += len;
      }
      const int diff = new_count - old_count;
      if (diff > 0) {
        for (int k = 0; k < diff; ++k) dest[dest.size() - 1 - k].change = 1;
      } else if (diff < 0 && !dest.empty()) {
        dest.back().change += diff;
      }
      changed = true;
    };
    for (size_t at = 0; at < text.size();) {
      const size_t glen = unicode::GraphemeLength(text, at);
      std::string_view rep;
      if (glen < 6 && Shortest(text.substr(at, glen), &rep)) {
        push_rule(text.substr(at, glen), rep);
      } else {
        for (size_t c = at; c < at + glen;) {
          int clen;
          const char32_t cp = utf8::decode(text, c, &clen);
          if (Shortest(text.substr(c, clen), &rep)) push_rule(text.substr(c, clen), rep);
          else dest.push_back({cp, 0});
          c += clen;
        }
      }
      at += glen;
    }
    if (changed) TransformPiece(p, dest, 0);
  }

 private:
  bool Shortest(std::string_view s, std::string_view* rep) const {
    bool found = false;
    map_.ForEachPrefix(s, [&](size_t, std::string_view r) {
      *rep = r;
      found = true;
      return false;
    });
    return found;
  }

  Charsmap map_;
};

}  // namespace

NormalizerPtr MakePrecompiledNormalizer(Charsmap map) {
  return std::make_unique<PrecompiledNormalizer>(map);
}

}  // namespace mtok
