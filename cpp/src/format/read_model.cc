// The model section: its type byte, then the model's own reader (models/).
#include "format/section_readers.h"
#include "io/codes.h"
#include "models/model_readers.h"

namespace mtok {

Status ReadModel(ByteReader& r, const SectionTable& sections, std::unique_ptr<Model>* out,
                 std::string* type) {
  namespace c = codes::model;
  size_t at = r.pos();
  uint8_t t;
  MTOK_RETURN_IF_ERROR(r.U8(&t));
  switch (t) {
    case c::kBpe:
    case c::kBpeFull:
      *type = "BPE";
      return ReadBpe(r, t == c::kBpeFull, sections, out);
    case c::kWordPiece:
      *type = "WordPiece";
      return ReadWordPiece(r, sections, out);
    case c::kUnigram:
    case c::kUnigramFull:
      *type = "Unigram";
      return ReadUnigram(r, sections, t == c::kUnigramFull, out);
    case c::kSentencePieceBpe:
      *type = "BPE";
      return ReadSentencePieceBpe(r, sections, out);
    default:
      return r.ErrorAt(at, "unknown model type " + std::to_string(t));
  }
}

}  // namespace mtok
