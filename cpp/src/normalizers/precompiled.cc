#include "normalizers/precompiled.h"

#include "common/scratch.h"
#include "normalizers/normalizers.h"
#include "normalizers/transform.h"

namespace mtok {

PrecompiledNormalizer::PrecompiledNormalizer(Charsmap map) : map_(map) {
  for (int c = 1; c < 0x80; ++c) {
    const char ch = static_cast<char>(c);
    ascii_has_[c] = Shortest(std::string_view(&ch, 1), &ascii_rule_[c]);
    ascii_plain_[c] = !ascii_has_[c] && c != '\r';
  }
}

void PrecompiledNormalizer::Normalize(Piece* p) const {
  if (map_.empty() || p->text.empty()) return;
  if (p->align.empty()) Rewrite(p);
  else RewriteTracked(p);
}

void PrecompiledNormalizer::Describe(std::vector<NormalizerStage>* out) const {
  out->push_back(PrecompiledShape{this});
}

// Without offsets: unchanged runs are copied whole. The output buffer
// trades places with the piece's, so a thread reuses both.
void PrecompiledNormalizer::Rewrite(Piece* p) const {
  thread_local std::string out;
  out.clear();
  const std::string_view text = p->text;
  size_t copied = 0;
  bool changed = false;
  Scan(text, [&](size_t at, size_t len, std::string_view rep) {
    out.append(text.data() + copied, at - copied);
    out.append(rep);
    copied = at + len;
    changed = true;
  });
  if (!changed) return;
  out.append(text.data() + copied, text.size() - copied);
  p->text.swap(out);
  TrimScratch(out);
}

// With offsets: HF lists the output with change codes and lets
// transform() align it (a rule with an empty replacement charges the
// removal to the previous output character); the same is done here.
void PrecompiledNormalizer::RewriteTracked(Piece* p) const {
  std::vector<CharChange> dest;
  dest.reserve(p->text.size());
  const std::string_view text = p->text;
  size_t kept = 0;
  bool changed = false;
  auto keep = [&](size_t e) {
    for (size_t i = kept; i < e;) {
      int len;
      dest.push_back({utf8::decode(text, i, &len), 0});
      i += len;
    }
  };
  Scan(text, [&](size_t at, size_t len, std::string_view rep) {
    keep(at);
    kept = at + len;
    changed = true;
    const int old_count = static_cast<int>(utf8::count_chars(text.substr(at, len)));
    int new_count = 0;
    for (size_t i = 0; i < rep.size(); ++new_count) {
      int clen;
      dest.push_back({utf8::decode(rep, i, &clen), 0});
      i += clen;
    }
    const int diff = new_count - old_count;
    if (diff > 0) {
      for (int k = 0; k < diff; ++k) dest[dest.size() - 1 - k].change = 1;
    } else if (diff < 0 && !dest.empty()) {
      dest.back().change += diff;
    }
  });
  if (!changed) return;
  keep(text.size());
  TransformPiece(p, dest, 0);
}

uint8_t PrecompiledNormalizer::LearnLone(char32_t cp) const {
  std::string s;  // short: no heap
  utf8::append(s, cp);
  std::string_view rep;
  const uint8_t v = unicode::IsPlainClusterStart(cp) && !Shortest(s, &rep) ? 1 : 2;
  lone_[cp].store(v, std::memory_order_relaxed);
  return v;
}

bool PrecompiledNormalizer::Shortest(std::string_view s, std::string_view* rep) const {
  bool found = false;
  map_.ForEachPrefix(s, [&](size_t, std::string_view r) {
    *rep = r;
    found = true;
    return false;
  });
  return found;
}

NormalizerPtr MakePrecompiledNormalizer(Charsmap map) {
  return std::make_unique<PrecompiledNormalizer>(map);
}

}  // namespace mtok
