// HF's NormalizedString::transform: rewrites a piece from a list of output
// characters with change codes, deriving the alignment exactly as HF does
// (positionally, which is what offsets must reproduce).
#pragma once
#include <vector>

#include "pipeline.h"

namespace mtok {

// One output character. change 0 replaces the next input character, 1
// inserts (aligned with the previous byte), -n replaces the next character
// and removes n more. Input left over at the end is dropped.
struct CharChange {
  char32_t c;
  int change;
};

// `initial_offset` input characters are removed before the first output.
void TransformPiece(Piece* p, const std::vector<CharChange>& dest, size_t initial_offset);

}  // namespace mtok
