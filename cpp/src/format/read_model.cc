#include "format/codes.h"
#include "format/loaded_file.h"
#include "models/bpe/bpe.h"
#include "models/model_readers.h"

namespace mtok {

// Ids are bounded so a hostile file cannot make the id index huge.
constexpr uint32_t kMaxTokenId = 1u << 24;

Status ReadVocabEntry(ByteReader& r, Vocab* vocab, std::string_view* token, uint32_t* id) {
  size_t at = r.pos();
  // Token strings reach Python (id_to_token, decode): they must be UTF-8.
  MTOK_RETURN_IF_ERROR(ReadUtf8(r, token, "vocab token"));
  MTOK_RETURN_IF_ERROR(r.U32(id));
  if (*id >= kMaxTokenId)
    return r.ErrorAt(at, "token id " + std::to_string(*id) + " is beyond the limit of 2^24");
  if (!vocab->Add(*token, *id))
    return r.ErrorAt(at, "token id " + std::to_string(*id) + " appears twice in the vocab");
  return Status::Ok();
}

namespace {

Status ReadBpe(ByteReader& r, bool full, std::unique_ptr<Model>* out) {
  uint32_t vocab_size, merge_size;
  bool byte_fallback, byte_level;
  MTOK_RETURN_IF_ERROR(r.U32(&vocab_size));
  MTOK_RETURN_IF_ERROR(r.Bool(&byte_fallback));
  MTOK_RETURN_IF_ERROR(r.Bool(&byte_level));
  MTOK_RETURN_IF_ERROR(r.U32(&merge_size));
  BpeOptions opt;
  opt.byte_fallback = byte_fallback;
  if (byte_level)
    return r.Error("BPE byte_level = 1 (the model maps bytes itself) is not supported");
  if (full) {
    uint8_t flags;
    size_t flags_at = r.pos();
    MTOK_RETURN_IF_ERROR(r.U8(&flags));
    if (flags & ~0x0F) return r.ErrorAt(flags_at, "unknown BPE flag bits");
    opt.ignore_merges = flags & codes::model::kBpeIgnoreMerges;
    opt.fuse_unk = flags & codes::model::kBpeFuseUnk;
    opt.rank_merges = flags & codes::model::kBpeRankMerges;
    opt.has_unk = flags & codes::model::kBpeHasUnk;
    MTOK_RETURN_IF_ERROR(r.U32(&opt.unk_id));
    std::string_view prefix, suffix;
    MTOK_RETURN_IF_ERROR(ReadUtf8(r, &prefix, "continuing_subword_prefix"));
    MTOK_RETURN_IF_ERROR(ReadUtf8(r, &suffix, "end_of_word_suffix"));
    opt.continuing_subword_prefix = std::string(prefix);
    opt.end_of_word_suffix = std::string(suffix);
  }
  MTOK_RETURN_IF_ERROR(r.CheckArray(vocab_size, 6));
  Vocab vocab;
  vocab.Reserve(vocab_size);
  for (uint32_t i = 0; i < vocab_size; ++i) {
    std::string_view token;
    uint32_t id;
    MTOK_RETURN_IF_ERROR(ReadVocabEntry(r, &vocab, &token, &id));
  }
  if (opt.has_unk && !vocab.Has(opt.unk_id))
    return r.Error("unk id " + std::to_string(opt.unk_id) + " is not in the vocab");
  const uint64_t record = full ? 16 : 12;
  MTOK_RETURN_IF_ERROR(r.CheckArray(merge_size, record));
  std::vector<MergeEntry> merges(merge_size);
  std::string cat;
  for (uint32_t i = 0; i < merge_size; ++i) {
    size_t at = r.pos();
    MergeEntry& m = merges[i];
    MTOK_RETURN_IF_ERROR(r.U32(&m.left));
    MTOK_RETURN_IF_ERROR(r.U32(&m.right));
    MTOK_RETURN_IF_ERROR(r.U32(&m.rank));
    if (!vocab.Has(m.left) || !vocab.Has(m.right))
      return r.ErrorAt(at, "merge " + std::to_string(i) + " refers to an id not in the vocab");
    if (full) {
      MTOK_RETURN_IF_ERROR(r.U32(&m.merged));
      if (!vocab.Has(m.merged))
        return r.ErrorAt(at, "merge " + std::to_string(i) + " produces an id not in the vocab");
      // HF's rule: left + right without the subword prefix. Anything else
      // (a merge into a shorter token, a cycle) is not a BPE merge table.
      std::string_view right = vocab.Token(m.right);
      size_t cut = opt.continuing_subword_prefix.size();
      if (right.size() < cut ||
          vocab.Token(m.merged) != cat.assign(vocab.Token(m.left)).append(right.substr(cut)))
        return r.ErrorAt(at, "merge " + std::to_string(i) + " produces id " +
                                 std::to_string(m.merged) + ", which is not its left token followed by its right");
    } else {
      cat.assign(vocab.Token(m.left)).append(vocab.Token(m.right));
      if (!vocab.Find(cat, &m.merged))
        return r.ErrorAt(at, "merge " + std::to_string(i) + " produces a token not in the vocab");
    }
  }
  *out = MakeBpeModel(std::move(vocab), merges, std::move(opt));
  return Status::Ok();
}

}  // namespace

Status ReadModel(ByteReader& r, std::unique_ptr<Model>* out, std::string* type) {
  namespace c = codes::model;
  size_t at = r.pos();
  uint8_t t;
  MTOK_RETURN_IF_ERROR(r.U8(&t));
  switch (t) {
    case c::kBpe:
    case c::kBpeFull:
      *type = "BPE";
      return ReadBpe(r, t == c::kBpeFull, out);
    case c::kWordPiece:
      *type = "WordPiece";
      return ReadWordPiece(r, out);
    case c::kUnigram:
    case c::kUnigramFull:
      *type = "Unigram";
      return ReadUnigram(r, t == c::kUnigramFull, out);
    case c::kSentencePieceBpe:
      *type = "BPE";
      return ReadSentencePieceBpe(r, out);
    default:
      return r.ErrorAt(at, "unknown model type " + std::to_string(t));
  }
}

}  // namespace mtok
