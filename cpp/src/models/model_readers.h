// Readers for the model section, one per model family (called by
// format/read_model.cc after the type byte).
#pragma once
#include <memory>

#include "format/byte_reader.h"
#include "models/vocab.h"
#include "pipeline.h"

namespace mtok {

// Reads [str token][u32 id] into vocab, validating the id.
Status ReadVocabEntry(ByteReader& r, Vocab* vocab, std::string_view* token, uint32_t* id);

Status ReadWordPiece(ByteReader& r, bool full, std::unique_ptr<Model>* out);
Status ReadUnigram(ByteReader& r, bool full, std::unique_ptr<Model>* out);

}  // namespace mtok
