#include <cstring>

#include "common/huge_pages.h"
#include "io/slot_table.h"
#include "io/codes.h"
#include "format/section_readers.h"
#include "format/read_trailer.h"
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
  // Id tables are indexed by id, so a few entries with huge ids would make a
  // tiny file allocate hundreds of MB. An entry takes at least 6 bytes: ids
  // stay below twice the entries the file could hold, plus slack.
  const uint64_t limit = 2 * (r.size() / 6) + 65536;
  if (*id >= limit)
    return r.ErrorAt(at, "token id " + std::to_string(*id) + " is too large for a file of " +
                             std::to_string(r.size()) + " bytes (limit " + std::to_string(limit) + ")");
  if (!vocab->Add(*token, *id))
    return r.ErrorAt(at, "token id " + std::to_string(*id) + " appears twice in the vocab");
  return Status::Ok();
}

// Adopts VOFF + VHSH: the vocab is used in place, its records unparsed.
// Returns false (and changes nothing) when the file lacks them.
Status AdoptVocab(ByteReader& r, const Trailer& trailer, uint32_t vocab_size, Vocab* vocab,
                  bool* adopted) {
  std::string_view voff, vhsh;
  *adopted = false;
  if (!trailer.Find(codes::tag::kVocabOffsets, &voff) || !trailer.Find(codes::tag::kVocabIndex, &vhsh))
    return Status::Ok();
  auto fail = [](const std::string& what) { return FormatError("extension section VOFF: " + what); };
  if (voff.size() < 8 || reinterpret_cast<uintptr_t>(voff.data()) % 4 != 0) return fail("too short or misaligned");
  uint32_t id_limit, region_end;
  std::memcpy(&id_limit, voff.data(), 4);
  std::memcpy(&region_end, voff.data() + 4, 4);
  if ((voff.size() - 8) / 4 != id_limit || (voff.size() - 8) % 4 != 0)
    return fail("size does not match its id count");
  if (id_limit > (1u << 24)) return fail("id count beyond the limit of 2^24");
  if (region_end < r.pos() || region_end > r.size()) return fail("vocab end is out of range");
  U32Slots index;
  MTOK_RETURN_IF_ERROR(ParseSlotTable(vhsh, "VHSH", 1, &index));
  vocab->UseMappedIndex(index.slots, index.capacity);
  if (!vocab->ValidMappedIndex()) return FormatError("extension section VHSH: no free slot");
  vocab->UseMappedRecords(r.data(), r.pos(), region_end,
                          reinterpret_cast<const uint32_t*>(voff.data() + 8), id_limit, vocab_size);
  r.seek(region_end);
  *adopted = true;
  return Status::Ok();
}

namespace {

// Adopts PHSH. Merged ids are checked against the vocab when used.
Status AdoptPairIndex(std::string_view payload, const Vocab& vocab, PairIndex* pairs) {
  U32Slots t;
  MTOK_RETURN_IF_ERROR(ParseSlotTable(payload, "PHSH", 4, &t));
  pairs->Adopt(reinterpret_cast<const PairIndex::Slot*>(t.slots), t.capacity, vocab.id_limit());
  if (!pairs->HasFreeSlot()) return FormatError("extension section PHSH: no free slot");
  return Status::Ok();
}

// Reads the merges table of the section into `pairs`.
Status ReadMerges(ByteReader& r, bool full, uint32_t merge_size, const Vocab& vocab,
                  const BpeOptions& opt, PairIndex* pairs) {
  MTOK_RETURN_IF_ERROR(r.CheckArray(merge_size, full ? 16 : 12));
  pairs->Build(merge_size);
  std::string cat;
  for (uint32_t i = 0; i < merge_size; ++i) {
    size_t at = r.pos();
    MergeEntry m;
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
    pairs->Insert(m.left, m.right, m.rank, m.merged);
  }
  return Status::Ok();
}

Status ReadBpe(ByteReader& r, bool full, const Trailer& trailer, std::unique_ptr<Model>* out) {
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
  bool adopted;
  MTOK_RETURN_IF_ERROR(AdoptVocab(r, trailer, vocab_size, &vocab, &adopted));
  if (!adopted) {
    vocab.Reserve(vocab_size);
    for (uint32_t i = 0; i < vocab_size; ++i) {
      std::string_view token;
      uint32_t id;
      MTOK_RETURN_IF_ERROR(ReadVocabEntry(r, &vocab, &token, &id));
    }
  }
  std::string_view payload;
  if (opt.has_unk && !vocab.Has(opt.unk_id))
    return r.Error("unk id " + std::to_string(opt.unk_id) + " is not in the vocab");

  BpeTables tables;
  std::string_view raw, raw_index, fold, whole, filter;
  const bool has_pairs = trailer.Find(codes::tag::kPairIndex, &payload);
  trailer.Find(codes::tag::kPairFilter, &filter);
  if (trailer.Find(codes::tag::kRawBytes, &raw) && trailer.Find(codes::tag::kRawIndex, &raw_index)) {
    // First-seen words probe these tables at random (Llama 3: 10 MB). In
    // the file's 4 KB pages most probes also missed the TLB; on 2 MB pages
    // a cold English pass took a quarter less time, for 0.5-1 ms more at
    // load than reading them in place.
    tables.hot = CopyToHugePages({&payload, &raw, &raw_index, &filter});
  }
  if (has_pairs) {
    MTOK_RETURN_IF_ERROR(AdoptPairIndex(payload, vocab, &tables.pairs));
    MTOK_RETURN_IF_ERROR(r.CheckArray(merge_size, full ? 16 : 12));
    r.seek(r.pos() + uint64_t(merge_size) * (full ? 16 : 12));  // already indexed
  } else {
    MTOK_RETURN_IF_ERROR(ReadMerges(r, full, merge_size, vocab, opt, &tables.pairs));
  }
  if (!raw.empty() && !raw_index.empty()) {
    MTOK_RETURN_IF_ERROR(ParseRawTables(raw, raw_index, vocab.id_limit(), &tables.raw));
    if (trailer.Find(codes::tag::kCharFold, &fold))
      MTOK_RETURN_IF_ERROR(CharFold::Parse(fold, tables.raw, &tables.fold));
    if (trailer.Find(codes::tag::kWholeTokens, &whole))
      MTOK_RETURN_IF_ERROR(WholeTokens::Parse(whole, tables.raw.count, &tables.whole));
    if (!filter.empty()) MTOK_RETURN_IF_ERROR(PairFilter::Parse(filter, &tables.pair_filter));
  } else if (trailer.Find(codes::tag::kCharFold, &fold) || trailer.Find(codes::tag::kWholeTokens, &whole) ||
             !filter.empty()) {
    return FormatError("extension sections BFLD, BWHL and PFLT need BRAW and BHSH");
  }
  *out = MakeBpeModel(std::move(vocab), std::move(tables), std::move(opt));
  return Status::Ok();
}

}  // namespace

Status ReadModel(ByteReader& r, const Trailer& trailer, std::unique_ptr<Model>* out,
                 std::string* type) {
  namespace c = codes::model;
  size_t at = r.pos();
  uint8_t t;
  MTOK_RETURN_IF_ERROR(r.U8(&t));
  switch (t) {
    case c::kBpe:
    case c::kBpeFull:
      *type = "BPE";
      return ReadBpe(r, t == c::kBpeFull, trailer, out);
    case c::kWordPiece:
      *type = "WordPiece";
      return ReadWordPiece(r, out);
    case c::kUnigram:
    case c::kUnigramFull:
      *type = "Unigram";
      return ReadUnigram(r, trailer, t == c::kUnigramFull, out);
    case c::kSentencePieceBpe:
      *type = "BPE";
      return ReadSentencePieceBpe(r, trailer, out);
    default:
      return r.ErrorAt(at, "unknown model type " + std::to_string(t));
  }
}

}  // namespace mtok
