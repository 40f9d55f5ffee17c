// Unigram model section: MNN's code 2 (HF semantics) and mtok's code 66
// (flags, piece types; SentencePiece semantics when asked).
#include "io/codes.h"
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

Status ReadUnigram(ByteReader& r, const SectionTable& trailer, bool full, std::unique_ptr<Model>* out) {
  uint32_t n;
  PieceModelOptions opt;
  MTOK_RETURN_IF_ERROR(ReadPieceModelHeader(r, full, &n, &opt));
  // Without an unk id HF fails on the first unknown character; mtok
  // refuses such a model when it loads instead.
  if (!opt.has_unk) return r.Error("Unigram model without an unk id");
  // Record: [u16 len][token][u32 id][f64 score], + [u8 type] in code 66.
  const size_t record_tail = full ? 13 : 12;
  Vocab vocab;
  UnigramTrie trie;
  std::string_view utri;
  if (trailer.Find(codes::tag::kUnigramTrie, &utri)) {
    bool adopted;
    MTOK_RETURN_IF_ERROR(AdoptVocab(r, trailer, n, &vocab, &adopted));
    if (!adopted) return FormatError("extension section UTRI needs the VOFF and VHSH sections");
    if (!vocab.Has(opt.unk_id)) return r.Error("unk id " + std::to_string(opt.unk_id) + " is not in the vocab");
    uint32_t byte_ids[256];
    if (opt.byte_fallback && opt.sentencepiece && !FindBytePieces(vocab, byte_ids))
      return r.Error("byte_fallback is set but <0x00>..<0xFF> are not all in the vocab");
    MTOK_RETURN_IF_ERROR(ParseUnigramTrie(utri, &trie));
  } else {
    std::vector<ScoredPiece> pieces;
    MTOK_RETURN_IF_ERROR(ReadScoredPieces(r, n, full, opt, &vocab, &pieces));
    trie = BuildUnigramTrie(pieces, opt.sentencepiece);
  }
  *out = MakeUnigramModel(std::move(vocab), opt, std::move(trie), record_tail);
  return Status::Ok();
}

}  // namespace mtok
