#include "encoding/offsets.h"

#include "common/utf8.h"

namespace mtok {

std::vector<Span> CharSpans(std::string_view text) {
  std::vector<Span> spans(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t n = std::min<size_t>(utf8::seq_len(static_cast<unsigned char>(text[i])), text.size() - i);
    for (size_t k = 0; k < n; ++k) spans[i + k] = Span{uint32_t(i), uint32_t(i + n)};
    i += n;
  }
  return spans;
}

CharOffsets::CharOffsets(std::string_view text) : char_of_byte_(text.size()) {
  uint32_t c = 0;
  for (size_t i = 0; i < text.size(); ++c) {
    size_t n = std::min<size_t>(utf8::seq_len(static_cast<unsigned char>(text[i])), text.size() - i);
    for (size_t k = 0; k < n; ++k) char_of_byte_[i + k] = c;
    i += n;
  }
}

std::pair<uint32_t, uint32_t> CharOffsets::Convert(uint32_t begin, uint32_t end) const {
  const size_t n = char_of_byte_.size();
  if (begin >= n) return {begin, end};
  const uint32_t b = char_of_byte_[begin];
  if (end < n) return {b, char_of_byte_[end]};
  // The end of the text has no entry: one past the character before it.
  const uint32_t last = end >= 1 && end - 1 < n ? char_of_byte_[end - 1] : b;
  return {b, last + 1};
}

namespace {

void Push(Encoding* out, uint32_t id, std::string token, int32_t word, uint32_t type_id,
          std::pair<uint32_t, uint32_t> offsets) {
  out->ids.push_back(id);
  out->type_ids.push_back(type_id);
  out->special_mask.push_back(0);
  out->attention_mask.push_back(1);
  out->tokens.push_back(std::move(token));
  out->words.push_back(word);
  out->offsets.push_back(offsets);
}

}  // namespace

void AppendPieceTokens(const Piece& p, const std::vector<Token>& tokens, const Model& model,
                       int32_t word, uint32_t type_id, const CharOffsets& chars, Encoding* out) {
  for (const Token& t : tokens) {
    std::pair<uint32_t, uint32_t> bytes;
    if (t.end > t.begin && t.end <= p.align.size()) {
      bytes = {p.align[t.begin].begin, p.align[t.end - 1].end};
    } else {
      // HF keeps an empty range relative to the piece's start.
      uint32_t base = p.align.empty() ? 0 : p.align.front().begin;
      bytes = {base + t.begin, base + t.end};
    }
    std::string_view s = model.TokenIsText(t.id)
                             ? std::string_view(p.text).substr(t.begin, t.end - t.begin)
                             : model.IdToToken(t.id);
    Push(out, t.id, std::string(s), word, type_id, chars.Convert(bytes.first, bytes.second));
  }
}

void AppendAddedPiece(const Piece& p, int32_t word, uint32_t type_id, const CharOffsets& chars,
                      Encoding* out) {
  std::pair<uint32_t, uint32_t> bytes{0, 0};
  if (!p.align.empty()) bytes = {p.align.front().begin, p.align.back().end};
  // HF's token string is the matched text (with any lstrip/rstrip spaces).
  Push(out, static_cast<uint32_t>(p.added_id), p.text, word, type_id,
       chars.Convert(bytes.first, bytes.second));
}

}  // namespace mtok
