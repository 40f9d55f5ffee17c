// WordPiece (HF semantics): greedy longest-match-first over each word, with
// the continuing-subword prefix on non-initial pieces; a word that cannot be
// spelled, or is longer than max_input_chars_per_word, becomes the unk token.
#pragma once
#include <memory>
#include <string>

#include "models/vocab.h"
#include "pipeline.h"

namespace mtok {

struct WordPieceOptions {
  uint32_t unk_id = 0;
  std::string continuing_subword_prefix = "##";
  uint32_t max_input_chars_per_word = 100;
};

std::unique_ptr<Model> MakeWordPieceModel(Vocab vocab, WordPieceOptions options);

}  // namespace mtok
