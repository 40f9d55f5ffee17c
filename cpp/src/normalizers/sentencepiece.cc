#include <algorithm>
#include <bitset>
#include <unordered_set>

#include "common/utf8.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

constexpr std::string_view kSpaceSymbol = "\xE2\x96\x81";  // U+2581

// SentencePiece's Normalizer::Normalize: the charsmap by leftmost-longest
// match over bytes, user-defined symbols kept verbatim, then the whitespace
// options, all in one pass (extra-space removal looks at normalized output).
class SentencePieceNormalizer : public Normalizer {
 public:
  explicit SentencePieceNormalizer(SpmNormalizerOptions opt) : opt_(std::move(opt)) {
    for (std::string_view s : opt_.user_defined) {
      if (s.empty()) continue;
      user_.insert(s);
      first_bytes_.set(static_cast<uint8_t>(s[0]));
      max_user_ = std::max(max_user_, s.size());
    }
  }

  void Normalize(Piece* p) const override {
    const std::string_view in = p->text;
    const bool track = !p->align.empty();
    std::string out;
    std::vector<Span> align;
    out.reserve(in.size() + kSpaceSymbol.size());
    auto span_of = [&](size_t b, size_t e) {
      if (!track) return Span{};
      if (b >= e) return Span{p->align[std::min(b, in.size() - 1)].begin,
                              p->align[std::min(b, in.size() - 1)].begin};
      return Span{p->align[b].begin, p->align[e - 1].end};
    };
    auto emit = [&](std::string_view s, Span src) {
      out.append(s);
      if (track) align.insert(align.end(), s.size(), src);
    };
    auto add_ws = [&](Span src) { emit(opt_.escape_whitespaces ? kSpaceSymbol : " ", src); };

    size_t pos = 0;
    std::string_view rep;
    if (opt_.remove_extra_whitespaces) {
      while (pos < in.size()) {
        size_t n = Prefix(in.substr(pos), &rep);
        if (rep != " ") break;
        pos += n;
      }
    }
    if (pos == in.size()) {
      p->text.clear();
      p->align.clear();
      return;
    }
    if (!opt_.treat_whitespace_as_suffix && opt_.add_dummy_prefix) add_ws(span_of(pos, pos));
    bool prev_space = opt_.remove_extra_whitespaces;
    while (pos < in.size()) {
      size_t n = Prefix(in.substr(pos), &rep);
      if (prev_space) {
        while (!rep.empty() && rep[0] == ' ') rep.remove_prefix(1);
      }
      if (!rep.empty()) {
        Span src = span_of(pos, pos + n);
        for (char c : rep) {
          if (opt_.escape_whitespaces && c == ' ') {
            emit(kSpaceSymbol, src);
          } else {
            emit(std::string_view(&c, 1), src);
          }
        }
        prev_space = rep.back() == ' ';
      }
      pos += n;
      if (!opt_.remove_extra_whitespaces) prev_space = false;
    }
    if (opt_.remove_extra_whitespaces) {
      const std::string_view space = opt_.escape_whitespaces ? kSpaceSymbol : " ";
      while (out.size() >= space.size() &&
             std::string_view(out).substr(out.size() - space.size()) == space) {
        out.resize(out.size() - space.size());
        if (track) align.resize(out.size());
      }
    }
    if (opt_.treat_whitespace_as_suffix && opt_.add_dummy_prefix) add_ws(span_of(in.size(), in.size()));
    p->text.swap(out);
    p->align.swap(align);
  }

 private:
  // Normalizes the start of s: returns the bytes consumed and the
  // replacement (a user-defined symbol, the longest charsmap rule, or the
  // character itself).
  size_t Prefix(std::string_view s, std::string_view* rep) const {
    if (max_user_ && first_bytes_.test(static_cast<uint8_t>(s[0]))) {
      for (size_t n = std::min(max_user_, s.size()); n > 0; --n) {
        if (user_.count(s.substr(0, n))) {
          *rep = s.substr(0, n);
          return n;
        }
      }
    }
    size_t longest = 0;
    opt_.charsmap.ForEachPrefix(s, [&](size_t n, std::string_view r) {
      longest = n;
      *rep = r;
      return true;
    });
    if (longest) return longest;
    size_t n = std::min<size_t>(utf8::seq_len(static_cast<uint8_t>(s[0])), s.size());
    *rep = s.substr(0, n);
    return n;
  }

  SpmNormalizerOptions opt_;
  std::unordered_set<std::string_view> user_;
  std::bitset<256> first_bytes_;
  size_t max_user_ = 0;
};

}  // namespace

NormalizerPtr MakeSentencePieceNormalizer(SpmNormalizerOptions options) {
  return std::make_unique<SentencePieceNormalizer>(std::move(options));
}

}  // namespace mtok
