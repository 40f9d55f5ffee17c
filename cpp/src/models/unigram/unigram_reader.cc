// Unigram model section: MNN's code 2 (HF semantics) and mtok's code 66
// (flags, piece types; SentencePiece semantics when asked).
#include "format/codes.h"
#include "models/model_readers.h"
#include "models/unigram/unigram.h"

namespace mtok {

// Code 66 flag bits: byte_fallback, has_unk, SentencePiece semantics.
Status ReadPieceModelHeader(ByteReader& r, bool full, uint32_t* n, PieceModelOptions* opt) {
  MTOK_RETURN_IF_ERROR(r.U32(n));
  MTOK_RETURN_IF_ERROR(r.U32(&opt->unk_id));
  if (!full) {
    MTOK_RETURN_IF_ERROR(r.Bool(&opt->byte_fallback));
    opt->has_unk = true;
    return Status::Ok();
  }
  size_t at = r.pos();
  uint8_t flags;
  MTOK_RETURN_IF_ERROR(r.U8(&flags));
  if (flags & ~0x07) return r.ErrorAt(at, "unknown model flag bits");
  opt->byte_fallback = flags & codes::model::kPieceByteFallback;
  opt->has_unk = flags & codes::model::kPieceHasUnk;
  opt->sentencepiece = flags & codes::model::kPieceSentencePiece;
  return Status::Ok();
}

Status ReadUnigram(ByteReader& r, bool full, std::unique_ptr<Model>* out) {
  uint32_t n;
  PieceModelOptions opt;
  MTOK_RETURN_IF_ERROR(ReadPieceModelHeader(r, full, &n, &opt));
  // Without an unk id HF fails on the first unknown character; mtok
  // refuses such a model when it loads instead.
  if (!opt.has_unk) return r.Error("Unigram model without an unk id");
  Vocab vocab;
  std::vector<ScoredPiece> pieces;
  MTOK_RETURN_IF_ERROR(ReadScoredPieces(r, n, full, opt, &vocab, &pieces));
  *out = MakeUnigramModel(std::move(vocab), pieces, opt);
  return Status::Ok();
}

}  // namespace mtok
