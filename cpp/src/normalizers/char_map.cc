#include "normalizers/char_map.h"

namespace mtok {

DecodedText DecodePiece(const Piece& p) {
  DecodedText d;
  d.cps.reserve(p.text.size());
  d.starts.reserve(p.text.size() + 1);
  for (size_t i = 0; i < p.text.size();) {
    int len;
    d.cps.push_back(utf8::decode(p.text, i, &len));
    d.starts.push_back(static_cast<uint32_t>(i));
    i += len;
  }
  d.starts.push_back(static_cast<uint32_t>(p.text.size()));
  return d;
}

void RebuildPiece(Piece* p, const DecodedText& in, const std::u32string& out,
                  const std::vector<uint32_t>& src) {
  bool track = !p->align.empty();
  std::string text;
  std::vector<Span> align;
  text.reserve(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    size_t before = text.size();
    utf8::append(text, out[i]);
    if (track) {
      uint32_t k = src[i];
      Span s{p->align[in.starts[k]].begin, p->align[in.starts[k + 1] - 1].end};
      align.insert(align.end(), text.size() - before, s);
    }
  }
  p->text.swap(text);
  p->align.swap(align);
}

}  // namespace mtok
