// Offsets of tokens in the input: the initial byte alignment of a piece and
// the byte -> character conversion HF's Python API applies.
#pragma once
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "mtok/encoding.h"
#include "pipeline.h"

namespace mtok {

// For each byte of text, the byte span of the character that holds it (HF's
// NormalizedString alignment before any normalization).
std::vector<Span> CharSpans(std::string_view text);

// HF BytesToCharOffsetConverter: byte offsets to character offsets.
class CharOffsets {
 public:
  explicit CharOffsets(std::string_view text);
  // Offsets that do not start inside the text are returned unchanged, as HF does.
  std::pair<uint32_t, uint32_t> Convert(uint32_t begin, uint32_t end) const;

 private:
  std::vector<uint32_t> char_of_byte_;
};

// Appends the tokens of one piece to a detailed encoding: ids, token
// strings, word id and character offsets into the input.
void AppendPieceTokens(const Piece& p, const std::vector<Token>& tokens, const Model& model,
                       int32_t word, uint32_t type_id, const CharOffsets& chars, Encoding* out);
// Appends an added-token piece the same way.
void AppendAddedPiece(const Piece& p, int32_t word, uint32_t type_id, const CharOffsets& chars,
                      Encoding* out);

}  // namespace mtok
