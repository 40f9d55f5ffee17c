// SentencePiece's BPE encoder (.model sources): starting from characters
// (user-defined symbols whole and frozen), repeatedly merge the adjacent pair
// whose concatenation is a piece with the highest score (ties: leftmost),
// split unused pieces back into the pair that made them, and spell unknown
// results as bytes (byte fallback) or one fused unk id.
#pragma once
#include <memory>
#include <vector>

#include "models/piece_vocab.h"
#include "pipeline.h"

namespace mtok {

std::unique_ptr<Model> MakeSentencePieceBpeModel(Vocab vocab, const std::vector<ScoredPiece>& pieces,
                                                 PieceModelOptions options);

}  // namespace mtok
