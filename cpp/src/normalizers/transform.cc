#include "normalizers/transform.h"

#include "common/utf8.h"

namespace mtok {

void TransformPiece(Piece* p, const std::vector<CharChange>& dest, size_t initial_offset) {
  const std::string& in = p->text;
  const bool track = !p->align.empty();
  size_t offset = 0;  // next input byte
  auto skip_chars = [&](size_t n) {
    for (size_t k = 0; k < n && offset < in.size(); ++k) {
      offset += utf8::seq_len(static_cast<unsigned char>(in[offset]));
    }
  };
  skip_chars(initial_offset);
  // HF's (0, 0) is relative to the piece; here spans are absolute.
  const Span origin = track ? Span{p->align[0].begin, p->align[0].begin} : Span{};
  std::string text;
  std::vector<Span> align;
  text.reserve(in.size());
  for (const CharChange& d : dest) {
    Span src{};
    if (track) {
      if (d.change > 0) src = offset < 1 ? origin : p->align[offset - 1];
      else src = offset < p->align.size() ? p->align[offset] : p->align.back();
    }
    if (d.change <= 0) skip_chars(1);
    if (d.change < 0) skip_chars(static_cast<size_t>(-d.change));
    const size_t before = text.size();
    utf8::append(text, d.c);
    if (track) align.insert(align.end(), text.size() - before, src);
  }
  p->text.swap(text);
  p->align.swap(align);
}

}  // namespace mtok
