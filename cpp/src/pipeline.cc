#include "pipeline.h"

#include "common/scratch.h"

namespace mtok {

Piece SubPiece(const Piece& p, size_t b, size_t e) {
  Piece s;
  s.text.assign(p.text, b, e - b);
  if (!p.align.empty()) s.align.assign(p.align.begin() + b, p.align.begin() + e);
  s.word = p.word;
  s.at_input_start = p.at_input_start && b == 0;
  return s;
}

void Normalizer::NormalizeText(std::string_view text, std::string* out) const {
  thread_local Piece p;
  p.text.assign(text);
  p.align.clear();
  Normalize(&p);
  out->swap(p.text);  // the buffers trade places: both stay allocated
  TrimScratch(p.text);
}

void Normalizer::Describe(std::vector<NormalizerStage>* out) const {
  out->push_back(OtherStage{});
}

void Model::AppendIds(std::string_view text, std::vector<uint32_t>* ids) const {
  thread_local Piece p;
  thread_local std::vector<Token> tokens;
  p.text.assign(text);
  tokens.clear();
  Tokenize(p, &tokens);
  for (const Token& t : tokens) ids->push_back(t.id);
}

}  // namespace mtok
