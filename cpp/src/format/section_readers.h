// The .mtok reader's output: the components a file describes, parsed and
// validated but not yet assembled into a tokenizer (tokenizer_impl.h does
// that). Format code builds components; it chooses no fast path.
#pragma once
#include <memory>
#include <vector>

#include "added_tokens/added_tokens.h"
#include "decoders/decoders.h"
#include "io/byte_reader.h"
#include "mtok/tokenizer.h"
#include "normalizers/normalizers.h"
#include "pipeline.h"
#include "pre_tokenizers/pre_tokenizers.h"
#include "processors/template.h"

namespace mtok {

struct SectionTable;

struct FileComponents {
  std::shared_ptr<const Buffer> bytes;
  TokenizerInfo info;
  NormalizerPtr normalizer;      // may be null
  PreTokenizerPtr pre_tokenizer; // may be null
  std::unique_ptr<Model> model;
  DecoderPtr decoder;            // null: tokens are joined with spaces
  std::vector<AddedToken> added_tokens;  // with their trailer flags
  PostProcessor post;            // its special tokens' strings not yet resolved
};

// Parses and validates the whole file. Never reads outside `bytes`.
Status ReadMtok(std::shared_ptr<const Buffer> bytes, FileComponents* out);

// Section readers (format/read_*.cc).
Status ReadNormalizer(ByteReader& r, int depth, NormalizerPtr* out, std::string* type);
Status ReadPreTokenizer(ByteReader& r, int depth, PreTokenizerPtr* out, std::string* type);
// Reads the type byte and dispatches to the model's own reader (models/).
Status ReadModel(ByteReader& r, const SectionTable& sections, std::unique_ptr<Model>* out,
                 std::string* type);
Status ReadDecoder(ByteReader& r, int depth, DecoderPtr* out, std::string* type);

// Compiles a regex from the file, turning a compile error into a FormatError
// that names the section and offset.
Status CompileFileRegex(ByteReader& r, size_t offset, std::string_view pattern,
                        RegexDialect dialect, std::unique_ptr<Regex>* out);
// Reads a Sequence body, [u32 n] then n components, with read_one(r, depth,
// &part, &type) for each; null parts (type None) are left out, and *type
// becomes "Sequence[a,b,...]".
template <typename Ptr, typename ReadOne>
Status ReadSequenceParts(ByteReader& r, int depth, ReadOne read_one, std::vector<Ptr>* parts,
                         std::string* type) {
  uint32_t n;
  MTOK_RETURN_IF_ERROR(r.U32(&n));
  MTOK_RETURN_IF_ERROR(r.CheckArray(n, 1));
  std::string names;
  for (uint32_t i = 0; i < n; ++i) {
    Ptr part;
    std::string sub;
    MTOK_RETURN_IF_ERROR(read_one(r, depth + 1, &part, &sub));
    names += (i ? "," : "") + sub;
    if (part) parts->push_back(std::move(part));
  }
  *type = "Sequence[" + names + "]";
  return Status::Ok();
}

}  // namespace mtok
