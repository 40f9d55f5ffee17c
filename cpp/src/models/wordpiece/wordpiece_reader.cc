// WordPiece model section (MNN's code 1), with the vocab sections and the
// trie (WTRI) a file may carry.
#include "io/codes.h"
#include "models/model_readers.h"
#include "models/wordpiece/wordpiece.h"

namespace mtok {

Status ReadWordPiece(ByteReader& r, const SectionTable& sections, std::unique_ptr<Model>* out) {
  uint32_t n;
  std::string_view unk, prefix;
  WordPieceOptions opt;
  MTOK_RETURN_IF_ERROR(r.U32(&n));
  size_t unk_at = r.pos();
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, &unk, "unk_token"));
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, &prefix, "continuing_subword_prefix"));
  MTOK_RETURN_IF_ERROR(r.U32(&opt.max_input_chars_per_word));
  opt.continuing_subword_prefix = std::string(prefix);
  Vocab vocab;
  MTOK_RETURN_IF_ERROR(ReadOrAdoptVocab(r, sections, n, &vocab));
  // HF fails on the first word it cannot spell when unk is missing; mtok
  // refuses the model when it loads instead.
  if (!vocab.Find(unk, &opt.unk_id))
    return r.ErrorAt(unk_at, "unk_token '" + std::string(unk) + "' is not in the vocab");
  WordPieceTrie trie;
  std::string_view wtri;
  if (sections.Find(codes::tag::kWordPieceTrie, &wtri))
    MTOK_RETURN_IF_ERROR(WordPieceTrie::Parse(wtri, vocab.id_limit(), &trie));
  *out = MakeWordPieceModel(std::move(vocab), std::move(opt), std::move(trie));
  return Status::Ok();
}

}  // namespace mtok
