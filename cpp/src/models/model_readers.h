// Readers for the model section, one per model family (called by
// format/read_model.cc after the type byte).
#pragma once
#include <memory>

#include "io/byte_reader.h"
#include "models/piece_vocab.h"
#include "models/vocab.h"
#include "pipeline.h"

namespace mtok {

struct Trailer;

// Reads [str token][u32 id] into vocab, validating the id.
Status ReadVocabEntry(ByteReader& r, Vocab* vocab, std::string_view* token, uint32_t* id);
// Reads [u16 len][bytes] and checks it is valid UTF-8 (format/read_common.cc).
Status ReadUtf8(ByteReader& r, std::string_view* s, const char* field);

Status ReadWordPiece(ByteReader& r, std::unique_ptr<Model>* out);
// Adopts the VOFF + VHSH sections: the vocab is used in place and `r`
// skips its records. *adopted is false (nothing changed) without them.
Status AdoptVocab(ByteReader& r, const Trailer& trailer, uint32_t vocab_size, Vocab* vocab,
                  bool* adopted);

// Unigram: MNN's code 2 or mtok's code 66 (`full`); adopts UTRI with the
// vocab sections.
Status ReadUnigram(ByteReader& r, const Trailer& trailer, bool full, std::unique_ptr<Model>* out);
// SentencePiece BPE (code 67): the code 66 layout, SentencePiece's merging;
// adopts the vocab sections.
Status ReadSentencePieceBpe(ByteReader& r, const Trailer& trailer, std::unique_ptr<Model>* out);

// The header shared by codes 2, 66 and 67: counts, unk id and flags.
Status ReadPieceModelHeader(ByteReader& r, bool full, uint32_t* n, PieceModelOptions* opt);

}  // namespace mtok
