// Vocab entries with a score and a SentencePiece piece type, shared by the
// Unigram and SentencePiece-BPE models.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "io/byte_reader.h"
#include "models/vocab.h"

namespace mtok {

// SentencePiece's ModelProto.SentencePiece.Type numbering.
enum class PieceType : uint8_t {
  kNormal = 1, kUnknown = 2, kControl = 3, kUserDefined = 4, kUnused = 5, kByte = 6,
};

struct ScoredPiece {
  std::string_view token;
  uint32_t id;
  double score;
  PieceType type;
};

struct PieceModelOptions {
  bool byte_fallback = false;
  bool has_unk = false;
  uint32_t unk_id = 0;
  // SentencePiece semantics (.model sources): float scores, piece types
  // respected. Otherwise HF's (every entry is a normal piece).
  bool sentencepiece = false;
};

// Reads `n` entries [str token][u32 id][f64 score] (+ [u8 type] when
// `typed`) into vocab, and each into each(piece), validating ids, types
// and the unk id.
Status ReadScoredPieces(ByteReader& r, uint32_t n, bool typed, const PieceModelOptions& opt,
                        Vocab* vocab, const std::function<void(const ScoredPiece&)>& each);
// The same into `pieces`.
Status ReadScoredPieces(ByteReader& r, uint32_t n, bool typed, const PieceModelOptions& opt,
                        Vocab* vocab, std::vector<ScoredPiece>* pieces);

// Score and type of one piece, indexed by id.
struct PieceInfo {
  float score = 0;
  PieceType type = PieceType::kUnused;  // ids without a piece are never merged into
};
// The same from a mapped vocab's code-66 records ([u32 id][f64 score][u8
// type] after each token), validating each.
Status PieceInfoFromRecords(const Vocab& vocab, std::vector<PieceInfo>* out);

// The byte pieces <0x00>..<0xFF>: ids, or false when one is missing.
bool FindBytePieces(const Vocab& vocab, uint32_t ids[256]);

// The VOFF and VHSH sections of a vocab built from the records of the file
// at `base` (`tail`: bytes after each record's token), appended to `out`;
// nothing when the vocab was mapped or its index is incomplete. The piece
// models' AccelSections and the native .model writer (convert/sp_file.cc)
// both write them through here.
void AppendVocabSections(const Vocab& vocab, const uint8_t* base, size_t tail,
                         std::vector<std::pair<uint32_t, std::string>>* out);

}  // namespace mtok
