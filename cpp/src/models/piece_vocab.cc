#include "models/piece_vocab.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "io/codes.h"
#include "io/slot_table.h"
#include "models/model_readers.h"

namespace mtok {

Status ReadScoredPieces(ByteReader& r, uint32_t n, bool typed, const PieceModelOptions& opt,
                        Vocab* vocab, std::vector<ScoredPiece>* pieces) {
  MTOK_RETURN_IF_ERROR(r.CheckArray(n, typed ? 15 : 14));  // before reserving for n
  pieces->reserve(n);
  return ReadScoredPieces(r, n, typed, opt, vocab, [pieces](const ScoredPiece& p) { pieces->push_back(p); });
}

Status ReadScoredPieces(ByteReader& r, uint32_t n, bool typed, const PieceModelOptions& opt,
                        Vocab* vocab, const std::function<void(const ScoredPiece&)>& each) {
  MTOK_RETURN_IF_ERROR(r.CheckArray(n, typed ? 15 : 14));
  vocab->Reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    size_t at = r.pos();
    ScoredPiece p;
    MTOK_RETURN_IF_ERROR(ReadVocabEntry(r, vocab, &p.token, &p.id));
    MTOK_RETURN_IF_ERROR(r.F64(&p.score));
    if (!std::isfinite(p.score)) return r.ErrorAt(at, "token score is not finite");
    p.type = PieceType::kNormal;
    if (typed) {
      uint8_t t;
      MTOK_RETURN_IF_ERROR(r.U8(&t));
      if (t < 1 || t > 6) return r.ErrorAt(r.pos() - 1, "unknown piece type " + std::to_string(t));
      p.type = static_cast<PieceType>(t);
    }
    if (p.token.empty()) return r.ErrorAt(at, "empty token");
    uint32_t first;
    // While the pieces come in byte order (as mtok writes them), each is new.
    if (opt.sentencepiece && !vocab->ascending() && vocab->Find(p.token, &first) && first != p.id)
      return r.ErrorAt(at, "piece appears twice in a SentencePiece vocab");
    each(p);
  }
  vocab->EndAdding();
  if (opt.has_unk && !vocab->Has(opt.unk_id))
    return r.Error("unk id " + std::to_string(opt.unk_id) + " is not in the vocab");
  if (opt.sentencepiece && !opt.has_unk) return r.Error("a SentencePiece model needs an unk id");
  if (opt.byte_fallback && opt.sentencepiece) {
    uint32_t ids[256];
    if (!FindBytePieces(*vocab, ids)) return r.Error("byte_fallback is set but <0x00>..<0xFF> are not all in the vocab");
  }
  return Status::Ok();
}

Status PieceInfoFromRecords(const Vocab& vocab, std::vector<PieceInfo>* out) {
  out->assign(vocab.id_limit(), PieceInfo{});
  for (uint32_t id = 0; id < vocab.id_limit(); ++id) {
    if (!vocab.Has(id)) continue;
    const uint8_t* tail = vocab.RecordTail(id, 13);
    if (tail == nullptr) return FormatError("vocab record of id " + std::to_string(id) + " is cut short");
    uint32_t record_id;
    double score;
    std::memcpy(&record_id, tail, 4);
    std::memcpy(&score, tail + 4, 8);
    const uint8_t type = tail[12];
    if (record_id != id) return FormatError("extension section VOFF: id " + std::to_string(id) + " points at the record of another id");
    if (!std::isfinite(score)) return FormatError("token score is not finite (id " + std::to_string(id) + ")");
    if (type < 1 || type > 6) return FormatError("unknown piece type " + std::to_string(type));
    (*out)[id] = {static_cast<float>(score), static_cast<PieceType>(type)};
  }
  return Status::Ok();
}

bool FindBytePieces(const Vocab& vocab, uint32_t ids[256]) {
  char name[8];
  bool all = true;
  for (int b = 0; b < 256; ++b) {
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    if (!vocab.Find(name, &ids[b])) {
      ids[b] = UINT32_MAX;
      all = false;
    }
  }
  return all;
}

void AppendVocabSections(const Vocab& vocab, const uint8_t* base, size_t tail,
                         std::vector<std::pair<uint32_t, std::string>>* out) {
  const std::vector<uint32_t>& slots = vocab.built_slots();
  std::string offsets = vocab.RecordOffsetsPayload(base, tail);
  if (slots.empty() || offsets.empty()) return;
  out->emplace_back(codes::tag::kVocabOffsets, std::move(offsets));
  out->emplace_back(codes::tag::kVocabIndex, SlotTablePayload(slots.data(), slots.size(), 1));
}

}  // namespace mtok
