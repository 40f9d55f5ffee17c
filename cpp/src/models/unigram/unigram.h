// Unigram language model tokenization: the best-scoring segmentation by
// Viterbi over byte positions, with HF tokenizers' or SentencePiece's rules
// for unknown characters, byte fallback, piece types and score precision.
#pragma once
#include <memory>
#include <vector>

#include "models/piece_vocab.h"
#include "pipeline.h"

namespace mtok {

std::unique_ptr<Model> MakeUnigramModel(Vocab vocab, const std::vector<ScoredPiece>& pieces,
                                        PieceModelOptions options);

}  // namespace mtok
