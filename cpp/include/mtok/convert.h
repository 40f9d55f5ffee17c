// The converter's fast path for tokenizer.json: the "model" object (its
// vocab and merges are nearly all of the file) read natively and written as
// the .mtok model section, byte for byte what src/mtok/format/models.py
// writes for the same model. The rest of the file (normalizer,
// pre-tokenizer, added tokens, ...) is small and stays with the Python
// importer, which splices this section in.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mtok::convert {

struct HfModel {
  size_t begin = 0, end = 0;        // the "model" value's byte span in the text
  std::string type;                 // "BPE", "Unigram" or "WordPiece"
  std::string section;              // the .mtok model section
  std::vector<int64_t> looked_up;   // vocab ids of the requested tokens (-1: absent)
};

// Reads tokenizer.json text. False when the fast path does not take the file:
// anything malformed, unusual (mtok_* keys, duplicate keys, other model
// types) or that the Python writer would reject. The caller then converts
// it with the Python importer, which reports what is wrong.
bool ConvertHfModel(std::string_view json, const std::vector<std::string>& lookups, HfModel* out);

}  // namespace mtok::convert

namespace mtok::convert {

// What the Python importer needs of a SentencePiece .model besides its
// model section (src/mtok/convert/sentencepiece.py builds the spec).
struct SpModel {
  std::string kind;     // "Unigram" or "SentencePieceBPE"
  std::string section;  // the .mtok model section
  uint32_t pieces = 0, unk_id = 0;
  // TrainerSpec (with the proto's defaults)
  int32_t bos_id = 1, eos_id = 2;
  bool byte_fallback = false, treat_whitespace_as_suffix = false;
  std::string unk_surface = " \xE2\x81\x87 ";
  // NormalizerSpec
  std::string_view precompiled_charsmap;  // into the proto, which must outlive this
  bool add_dummy_prefix = true, remove_extra_whitespaces = true, escape_whitespaces = true;
  std::vector<std::string> user_defined, control;  // pieces of those types, in id order
  std::string unk_piece, bos_piece, eos_piece;     // empty when the id is out of range
};

// Reads a SentencePiece ModelProto. False when the fast path does not take
// it (malformed, a denormalizer, WORD/CHAR models, unknown enum values, ...):
// the protobuf importer then reads it and reports what is wrong.
bool ConvertSpModel(std::string_view proto, SpModel* out);

// A SentencePiece ModelProto as a whole .mtok file, acceleration sections
// included: the bytes mtok's Python converter writes for it without
// add_bos/add_eos (src/mtok/convert/sentencepiece.py). False when
// ConvertSpModel does not take the file or the writer would reject it.
bool SpModelFile(std::string_view proto, std::string* out);

}  // namespace mtok::convert

namespace mtok::convert {

// The BPE model section of a tiktoken rank file ("base64 rank" lines): the
// tokens as byte-level characters (GPT-2's table), merged by rank. False
// when the fast path does not take the file (the Python importer then
// reads it and reports what is wrong).
bool ConvertTiktokenRanks(std::string_view data, std::string* section, uint32_t* tokens);

}  // namespace mtok::convert

namespace mtok::convert {

// The f64 HF tokenizers holds after writing `value` into tokenizer.json and
// reading it back, as it does to pickle or copy a Tokenizer: serde_json
// writes the shortest round-trip digits (ryu's layout) and reads them
// without float_roundtrip, which may land an ulp away (SerdeF64).
double HfJsonReread(double value);

}  // namespace mtok::convert
