// BPE model section: MNN's code 1 and mtok's code 65 (flags, unk,
// subword prefix and suffix); adopts the vocab, pair and raw-byte
// acceleration sections when the file has them.
#include "common/huge_pages.h"
#include "io/codes.h"
#include "io/slot_table.h"
#include "models/bpe/bpe.h"
#include "models/bpe/short_tokens.h"
#include "models/model_readers.h"

namespace mtok {

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

}  // namespace

Status ReadBpe(ByteReader& r, bool full, const SectionTable& trailer, std::unique_ptr<Model>* out) {
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
  Vocab vocab;
  MTOK_RETURN_IF_ERROR(ReadOrAdoptVocab(r, trailer, vocab_size, &vocab));
  std::string_view payload;
  if (opt.has_unk && !vocab.Has(opt.unk_id))
    return r.Error("unk id " + std::to_string(opt.unk_id) + " is not in the vocab");

  BpeTables tables;
  std::string_view raw, raw_index, raw_tags, spans, fold, whole, filter, shorts;
  const bool has_pairs = trailer.Find(codes::tag::kPairIndex, &payload);
  trailer.Find(codes::tag::kPairFilter, &filter);
  trailer.Find(codes::tag::kRawTags, &raw_tags);
  trailer.Find(codes::tag::kTokenSpans, &spans);
  trailer.Find(codes::tag::kShortTokens, &shorts);
  if (trailer.Find(codes::tag::kRawBytes, &raw) && trailer.Find(codes::tag::kRawIndex, &raw_index)) {
    // First-seen words probe these tables at random (Llama 3: 10 MB). In
    // the file's 4 KB pages most probes also missed the TLB; on 2 MB pages
    // a cold English pass took a quarter less time, for 0.5-1 ms more at
    // load than reading them in place.
    tables.hot = CopyToHugePages({&payload, &raw, &raw_index, &raw_tags, &spans, &filter});
    tables.in_place = tables.hot == nullptr;
  }
  if (has_pairs) {
    MTOK_RETURN_IF_ERROR(AdoptPairIndex(payload, vocab, &tables.pairs));
    MTOK_RETURN_IF_ERROR(r.CheckArray(merge_size, full ? 16 : 12));
    r.seek(r.pos() + uint64_t(merge_size) * (full ? 16 : 12));  // already indexed
  } else {
    MTOK_RETURN_IF_ERROR(ReadMerges(r, full, merge_size, vocab, opt, &tables.pairs));
  }
  if (!raw.empty() && !raw_index.empty()) {
    MTOK_RETURN_IF_ERROR(ParseRawTables(raw, raw_index, raw_tags, vocab.id_limit(), &tables.raw));
    if (trailer.Find(codes::tag::kCharFold, &fold))
      MTOK_RETURN_IF_ERROR(CharFold::Parse(fold, tables.raw, &tables.fold));
    if (trailer.Find(codes::tag::kCharFoldInContext, &fold))
      MTOK_RETURN_IF_ERROR(CharFold::ParseContext(fold, tables.raw, &tables.fold));
    if (trailer.Find(codes::tag::kWholeTokens, &whole))
      MTOK_RETURN_IF_ERROR(WholeTokens::Parse(whole, tables.raw.count, &tables.whole));
    if (!filter.empty()) MTOK_RETURN_IF_ERROR(PairFilter::Parse(filter, &tables.pair_filter));
    if (!spans.empty()) MTOK_RETURN_IF_ERROR(TokenSpans::Parse(spans, &tables.spans));
    if (!shorts.empty()) {
      ShortTokens checked;  // ByteBpe adopts the payload again (in place, no copy)
      MTOK_RETURN_IF_ERROR(ShortTokens::Parse(shorts, tables.raw.count, &checked));
      tables.short_tokens = shorts;
      // Read in place at random by first-seen words (4 MB for Llama 3): its
      // pages mapped now, not faulted in one at a time by the first encodes
      // (a fresh process's first 16 KB window about a fifth faster,
      // bench/README.md, twenty-fourth session).
      MapAhead(shorts);
    }
  } else if (trailer.Find(codes::tag::kCharFold, &fold) || trailer.Find(codes::tag::kCharFoldInContext, &fold) ||
             trailer.Find(codes::tag::kWholeTokens, &whole) ||
             !filter.empty() || !raw_tags.empty() || !spans.empty() || !shorts.empty()) {
    return FormatError("extension sections BFLD, BFLC, BWHL, PFLT, BTAG, BSPN and BSHT need BRAW and BHSH");
  }
  std::string_view cuts;
  if (trailer.Find(codes::tag::kBpeBoundaries, &cuts)) MTOK_RETURN_IF_ERROR(BpeBoundaries::Parse(cuts, &tables.boundaries));
  *out = MakeBpeModel(std::move(vocab), std::move(tables), std::move(opt));
  return Status::Ok();
}

}  // namespace mtok
