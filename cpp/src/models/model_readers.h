// Readers for the model section, one per model family, each next to its
// model (format/read_model.cc dispatches on the type byte). They read
// through io/ only: models/ does not include format/.
#pragma once
#include <memory>

#include "io/byte_reader.h"
#include "io/sections.h"
#include "models/piece_vocab.h"
#include "models/vocab.h"
#include "pipeline.h"

namespace mtok {

// Reads [str token][u32 id] into vocab, validating the id (models/vocab_reader.cc).
Status ReadVocabEntry(ByteReader& r, Vocab* vocab, std::string_view* token, uint32_t* id);
// Adopts the VOFF + VHSH sections: the vocab is used in place and `r`
// skips its records. *adopted is false (nothing changed) without them.
Status AdoptVocab(ByteReader& r, const SectionTable& sections, uint32_t vocab_size, Vocab* vocab,
                  bool* adopted);
// `vocab_size` [str token][u32 id] records: adopted from VOFF + VHSH, or
// else read and indexed.
Status ReadOrAdoptVocab(ByteReader& r, const SectionTable& sections, uint32_t vocab_size, Vocab* vocab);

// BPE: MNN's code 1 or mtok's code 65 (`full`); adopts the vocab, pair and
// raw-byte sections (models/bpe/bpe_reader.cc).
Status ReadBpe(ByteReader& r, bool full, const SectionTable& sections, std::unique_ptr<Model>* out);
// WordPiece: MNN's code 1; adopts the vocab sections and WTRI (its trie).
Status ReadWordPiece(ByteReader& r, const SectionTable& sections, std::unique_ptr<Model>* out);
// Unigram: MNN's code 2 or mtok's code 66 (`full`); adopts UTRI with the
// vocab sections.
Status ReadUnigram(ByteReader& r, const SectionTable& sections, bool full, std::unique_ptr<Model>* out);
// SentencePiece BPE (code 67): the code 66 layout, SentencePiece's merging;
// adopts the vocab sections.
Status ReadSentencePieceBpe(ByteReader& r, const SectionTable& sections, std::unique_ptr<Model>* out);

// The header shared by codes 2, 66 and 67: counts, unk id and flags.
Status ReadPieceModelHeader(ByteReader& r, bool full, uint32_t* n, PieceModelOptions* opt);

}  // namespace mtok
