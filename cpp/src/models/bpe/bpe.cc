#include "models/bpe/bpe.h"

#include "io/slot_table.h"
#include "io/codes.h"
#include "models/bpe/byte_bpe.h"
#include "models/piece_vocab.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <queue>

#include "common/utf8.h"

namespace mtok {
namespace {

struct Symbol {
  uint32_t id;
  int32_t prev, next;
  uint32_t begin, end;  // bytes of the piece; end == begin marks a removed symbol
};

struct Candidate {
  uint32_t rank;
  uint32_t pos;
  uint32_t merged;
  bool operator>(const Candidate& o) const {
    return rank != o.rank ? rank > o.rank : pos > o.pos;
  }
};

class BpeModel : public Model {
 public:
  BpeModel(Vocab vocab, BpeTables tables, BpeOptions opt)
      : vocab_(std::move(vocab)), tables_(std::move(tables)), opt_(std::move(opt)) {
    byte_bpe_ = ByteBpe::Build(vocab_, &tables_, opt_);
    // Only byte fallback reads them (each lookup may fault in a page of the
    // file: 0.3 ms for the 256 in a fresh process).
    std::fill(std::begin(byte_ids_), std::end(byte_ids_), kNone);
    if (opt_.byte_fallback) FindBytePieces(vocab_, byte_ids_);
  }

  void Tokenize(const Piece& p, std::vector<Token>* out) const override {
    const std::string& s = p.text;
    if (s.empty()) return;
    uint32_t id;
    if (opt_.ignore_merges && vocab_.Find(s, &id)) {
      out->push_back({id, 0, static_cast<uint32_t>(s.size())});
      return;
    }
    std::vector<Symbol> symbols;
    InitialSymbols(s, &symbols);
    MergeAll(s, &symbols);
    for (const Symbol& sym : symbols) {
      if (sym.id != kRemoved) out->push_back({sym.id, sym.begin, sym.end});
    }
  }

  std::string_view IdToToken(uint32_t id) const override { return vocab_.TokenText(id); }
  bool TokenToId(std::string_view t, uint32_t* id) const override { return vocab_.Find(t, id); }
  uint32_t VocabSize() const override { return vocab_.size(); }
  uint32_t IdLimit() const override { return vocab_.id_limit(); }
  const ByteBpe* byte_bpe() const { return byte_bpe_.get(); }
  const Vocab& vocab() const { return vocab_; }
  const BpeOptions& options() const { return opt_; }
  const BpeTables& tables() const { return tables_; }
  // Byte fallback covers every byte: no character becomes the unknown token.
  bool NeverUnknown() const {
    return opt_.byte_fallback && std::none_of(std::begin(byte_ids_), std::end(byte_ids_),
                                              [](uint32_t id) { return id == kNone; });
  }

  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override {
    if (BpeMaySplit(*this))
      out->emplace_back("bpe_word_boundaries", tables_.boundaries.has_tables() ? "mapped from the file (BBND)"
                                                                               : "scanned at the first word");
    if (!byte_bpe_) return;
    out->emplace_back("bpe_char_fold", tables_.fold.empty()
                                           ? std::string("none")
                                           : std::to_string(tables_.fold.size()) + " characters, " +
                                                 std::to_string(tables_.fold.in_context_size()) +
                                                 " more by their neighbours");
    out->emplace_back("bpe_whole_tokens", opt_.ignore_merges ? std::string("all (ignore_merges)")
                                          : tables_.whole.empty() ? std::string("none")
                                          : std::to_string(tables_.whole.Count()) + " tokens");
    out->emplace_back("bpe_pair_filter", tables_.pair_filter.empty() ? std::string("none")
                                         : std::to_string(tables_.pair_filter.bytes() >> 10) + " KB");
    out->emplace_back("bpe_short_tokens", byte_bpe_->ShortTokensInfo());
    out->emplace_back("bpe_byte_pairs", byte_bpe_->BytePairsInfo());
    out->emplace_back("bpe_table_pages", tables_.hot        ? HugePageRegion::KindName(tables_.hot->kind())
                                         : tables_.in_place ? "4 KB pages, read in place from the file"
                                                            : "built at load");
  }

  void AccelSections(const uint8_t* base,
                     std::vector<std::pair<uint32_t, std::string>>* out) const override {
    const std::vector<uint32_t>& v = vocab_.built_slots();
    std::string offsets = vocab_.RecordOffsetsPayload(base, 4);  // [u32 id]
    if (!v.empty() && !offsets.empty()) {
      out->emplace_back(codes::tag::kVocabOffsets, std::move(offsets));
      out->emplace_back(codes::tag::kVocabIndex, SlotTablePayload(v.data(), v.size(), 1));
    }
    const BpeBoundaries cuts = BpeBoundariesOf(*this);
    if (cuts.any()) out->emplace_back(codes::tag::kBpeBoundaries, cuts.Payload());
    if (!opt_.rank_merges && tables_.pairs.capacity() > 0) {
      out->emplace_back(codes::tag::kPairIndex,
                        SlotTablePayload(reinterpret_cast<const uint32_t*>(tables_.pairs.slots()),
                                         tables_.pairs.capacity(), 4));
    }
    if (byte_bpe_ && !tables_.raw.empty()) {
      out->emplace_back(codes::tag::kRawBytes, RawBytesPayload(tables_.raw));
      out->emplace_back(codes::tag::kRawIndex,
                        SlotTablePayload(tables_.raw.index.slots(), tables_.raw.index.capacity(), 1));
      out->emplace_back(codes::tag::kRawTags, RawTagsPayload(tables_.raw));
      out->emplace_back(codes::tag::kTokenSpans, byte_bpe_->TokenSpansPayload());
      std::string shorts = byte_bpe_->ShortTokensPayload();
      if (!shorts.empty()) out->emplace_back(codes::tag::kShortTokens, std::move(shorts));
      const RankSplits splits = byte_bpe_->ComputeRankSplits();
      PairFilter filter = byte_bpe_->ComputePairFilter(splits);
      const CharFold fold = byte_bpe_->ComputeCharFold(splits, filter.empty() ? nullptr : &filter);
      out->emplace_back(codes::tag::kCharFold, fold.Payload());
      std::string in_context = fold.ContextPayload();
      if (!in_context.empty()) out->emplace_back(codes::tag::kCharFoldInContext, std::move(in_context));
      if (!filter.empty()) out->emplace_back(codes::tag::kPairFilter, filter.Payload());
      if (!opt_.ignore_merges)  // with it, every token found is emitted anyway
        out->emplace_back(codes::tag::kWholeTokens, byte_bpe_->ComputeWholeTokens().Payload());
    }
  }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  static constexpr uint32_t kRemoved = 0xFFFFFFFEu;

  void Push(std::vector<Symbol>* syms, uint32_t id, uint32_t b, uint32_t e) const {
    int32_t n = static_cast<int32_t>(syms->size());
    syms->push_back({id, n - 1, n + 1, b, e});
  }

  // HF BPE::merge_word, first half: one symbol per character, with the
  // subword prefix/suffix, byte fallback and (fused) unknowns.
  void InitialSymbols(const std::string& s, std::vector<Symbol>* syms) const {
    syms->reserve(s.size());
    bool unk_pending = false;
    uint32_t unk_begin = 0, unk_end = 0;
    std::string key;
    for (size_t i = 0; i < s.size();) {
      int len;
      utf8::decode(s, i, &len);
      size_t e = i + len;
      bool first = i == 0, last = e == s.size();
      std::string_view ch(s.data() + i, len);
      std::string_view lookup = ch;
      if ((!first && !opt_.continuing_subword_prefix.empty()) ||
          (last && !opt_.end_of_word_suffix.empty())) {
        key.clear();
        if (!first) key += opt_.continuing_subword_prefix;
        key += ch;
        if (last) key += opt_.end_of_word_suffix;
        lookup = key;
      }
      uint32_t id;
      if (vocab_.Find(lookup, &id)) {
        if (unk_pending) {
          Push(syms, opt_.unk_id, unk_begin, unk_end);
          unk_pending = false;
        }
        Push(syms, id, static_cast<uint32_t>(i), static_cast<uint32_t>(e));
      } else if (opt_.byte_fallback && AllBytesKnown(lookup)) {
        // HF gives each fallback byte a length of 1 (offsets are per byte).
        uint32_t at = static_cast<uint32_t>(i);
        for (unsigned char b : lookup) {
          uint32_t pos = std::min<uint32_t>(at, static_cast<uint32_t>(e));
          uint32_t end = std::min<uint32_t>(at + 1, static_cast<uint32_t>(e));
          Push(syms, byte_ids_[b], pos, end);
          ++at;
        }
      } else if (opt_.has_unk) {
        if (unk_pending && opt_.fuse_unk) {
          unk_end = static_cast<uint32_t>(e);
        } else {
          if (unk_pending) Push(syms, opt_.unk_id, unk_begin, unk_end);
          unk_pending = true;
          unk_begin = static_cast<uint32_t>(i);
          unk_end = static_cast<uint32_t>(e);
        }
      }
      i = e;
    }
    if (unk_pending) Push(syms, opt_.unk_id, unk_begin, unk_end);
    if (!syms->empty()) syms->back().next = -1;
  }

  bool AllBytesKnown(std::string_view s) const {
    for (unsigned char b : s) {
      if (byte_ids_[b] == kNone) return false;
    }
    return true;
  }

  bool FindMerge(const std::string& /*s*/, const Symbol& a, const Symbol& b, uint32_t* rank,
                 uint32_t* merged) const {
    if (!opt_.rank_merges) return tables_.pairs.Find(a.id, b.id, rank, merged);
    // tiktoken: the pair merges when its concatenation is a token.
    std::string_view ta = vocab_.Token(a.id), tb = vocab_.Token(b.id);
    std::string cat;
    cat.reserve(ta.size() + tb.size());
    cat.append(ta).append(tb);
    uint32_t id;
    if (!vocab_.Find(cat, &id)) return false;
    *rank = id;
    *merged = id;
    return true;
  }

  // HF Word::merge_all: repeatedly merge the lowest-rank pair (leftmost on
  // ties) using a heap with lazy invalidation.
  void MergeAll(const std::string& s, std::vector<Symbol>* syms) const {
    std::vector<Symbol>& sy = *syms;
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
    uint32_t rank, merged;
    for (size_t i = 0; i + 1 < sy.size(); ++i) {
      if (FindMerge(s, sy[i], sy[i + 1], &rank, &merged))
        queue.push({rank, static_cast<uint32_t>(i), merged});
    }
    while (!queue.empty()) {
      Candidate top = queue.top();
      queue.pop();
      Symbol& cur = sy[top.pos];
      if (cur.id == kRemoved || cur.next < 0) continue;
      Symbol& right = sy[cur.next];
      if (!FindMerge(s, cur, right, &rank, &merged) || merged != top.merged) continue;
      cur.id = top.merged;
      cur.end = right.end;
      int32_t right_next = right.next;
      right.id = kRemoved;
      cur.next = right_next;
      if (right_next >= 0) sy[right_next].prev = static_cast<int32_t>(top.pos);
      if (cur.prev >= 0 && FindMerge(s, sy[cur.prev], cur, &rank, &merged))
        queue.push({rank, static_cast<uint32_t>(cur.prev), merged});
      if (cur.next >= 0 && FindMerge(s, cur, sy[cur.next], &rank, &merged))
        queue.push({rank, top.pos, merged});
    }
  }

  Vocab vocab_;
  BpeTables tables_;
  BpeOptions opt_;
  uint32_t byte_ids_[256];
  std::unique_ptr<ByteBpe> byte_bpe_;
};

}  // namespace

std::unique_ptr<Model> MakeBpeModel(Vocab vocab, BpeTables tables, BpeOptions options) {
  return std::make_unique<BpeModel>(std::move(vocab), std::move(tables), std::move(options));
}

namespace {

const BpeModel* Splittable(const Model& model) {
  const auto* bpe = dynamic_cast<const BpeModel*>(&model);
  if (bpe == nullptr) return nullptr;
  const BpeOptions& opt = bpe->options();
  // A prefix or suffix makes a symbol's token depend on its place in the
  // word, ignore_merges looks the whole piece up first, and fused unknowns
  // join across a split: none of them is local.
  if (!opt.continuing_subword_prefix.empty() || !opt.end_of_word_suffix.empty() || opt.ignore_merges ||
      (opt.has_unk && opt.fuse_unk && !bpe->NeverUnknown()))
    return nullptr;
  uint32_t mark_id;
  return bpe->vocab().Find(BpeBoundaries::kMark, &mark_id) ? bpe : nullptr;
}

}  // namespace

bool BpeMaySplit(const Model& model) { return Splittable(model) != nullptr; }

BpeBoundaries BpeBoundariesOf(const Model& model) {
  BpeBoundaries out;
  const BpeModel* bpe = Splittable(model);
  if (bpe == nullptr) return out;
  const Vocab& vocab = bpe->vocab();
  if (bpe->tables().boundaries.has_tables()) {
    out = bpe->tables().boundaries;
    out.vocab_ = &vocab;
    return out;
  }
  constexpr size_t kWords = BpeBoundaries::kTableLimit / 64;
  out.own_.assign(kWords, 0);
  out.glued_.assign(kWords, 0);
  auto set = [](std::vector<uint64_t>& bits, char32_t c) { bits[c >> 6] |= uint64_t{1} << (c & 63); };
  for (uint32_t id = 0; id < vocab.id_limit(); ++id) {
    std::string_view t = vocab.Token(id);
    int len;
    if (!t.empty() && static_cast<size_t>(utf8::valid_seq_len(t, 0)) == t.size()) {
      char32_t c = utf8::decode(t, 0, &len);
      if (c < BpeBoundaries::kTableLimit) set(out.own_, c);
    }
    for (size_t k = t.find(BpeBoundaries::kMark, 1); k != std::string_view::npos;
         k = t.find(BpeBoundaries::kMark, k + 1)) {
      size_t b = k - 1;
      while (b > 0 && (static_cast<unsigned char>(t[b]) & 0xC0) == 0x80) --b;
      char32_t c = utf8::decode(t, b, &len);
      if (c == 0x2581) continue;
      if (c < BpeBoundaries::kTableLimit) {
        set(out.glued_, c);
      } else {
        out.glue_.push_back(c);
      }
    }
  }
  std::sort(out.glue_.begin(), out.glue_.end());
  out.glue_.erase(std::unique(out.glue_.begin(), out.glue_.end()), out.glue_.end());
  out.vocab_ = &vocab;
  return out;
}

// BBND: [u32 words][u32 glue_count], words x u64 of "own" bits, words x u64
// of "glued" bits (words = kTableLimit / 64), then glue_count x u32 astral
// code points, ascending.
std::string BpeBoundaries::Payload() const {
  const uint32_t head[2] = {static_cast<uint32_t>(own_.size()), static_cast<uint32_t>(glue_.size())};
  std::string out(reinterpret_cast<const char*>(head), sizeof(head));
  out.append(reinterpret_cast<const char*>(own_.data()), own_.size() * 8);
  out.append(reinterpret_cast<const char*>(glued_.data()), glued_.size() * 8);
  if (!glue_.empty()) out.append(reinterpret_cast<const char*>(glue_.data()), glue_.size() * 4);
  return out;
}

Status BpeBoundaries::Parse(std::string_view payload, BpeBoundaries* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section BBND: " + what); };
  constexpr uint32_t kWords = kTableLimit / 64;
  uint32_t head[2];
  if (payload.size() < sizeof(head)) return fail("too short");
  std::memcpy(head, payload.data(), sizeof(head));
  if (head[0] != kWords) return fail("holds " + std::to_string(head[0]) + " words per table, not " + std::to_string(kWords));
  if (payload.size() != sizeof(head) + uint64_t{kWords} * 16 + uint64_t{head[1]} * 4)
    return fail("size does not match its counts");
  BpeBoundaries b;
  const char* at = payload.data() + sizeof(head);
  b.own_.resize(kWords);
  b.glued_.resize(kWords);
  b.glue_.resize(head[1]);
  std::memcpy(b.own_.data(), at, kWords * 8);
  std::memcpy(b.glued_.data(), at + kWords * 8, kWords * 8);
  if (head[1] > 0) std::memcpy(b.glue_.data(), at + kWords * 16, size_t{head[1]} * 4);  // data() may be null
  for (size_t k = 0; k < b.glue_.size(); ++k) {
    if (b.glue_[k] < kTableLimit || b.glue_[k] > 0x10FFFF || (k > 0 && b.glue_[k] <= b.glue_[k - 1]))
      return fail("astral code points out of range or order");
  }
  *out = std::move(b);
  return Status::Ok();
}

bool BpeBoundaries::SplitsAt(std::string_view s, size_t p) const {
  if (vocab_ == nullptr || p == 0 || p > s.size() || s.substr(p, kMark.size()) != kMark) return false;
  size_t b = p - 1;
  while (b > 0 && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) --b;
  int len;
  char32_t c = utf8::decode(s, b, &len);
  if (c == 0x2581 || b + static_cast<size_t>(len) != p) return false;  // a run of marks, or bad UTF-8
  // The character must be a symbol of its own (not byte fallback, whose
  // "<0x..>" token strings the scan does not see).
  if (c < kTableLimit) {
    if (Glued(c)) return false;
    // The table holds valid sequences only; anything else asks the vocab.
    if (c < 0x80 || utf8::valid_seq_len(s, b) == len) return Own(c);
  } else if (std::binary_search(glue_.begin(), glue_.end(), c)) {
    return false;
  }
  uint32_t id;
  return vocab_->Find(s.substr(b, p - b), &id);
}

const ByteBpe* ByteBpeOf(const Model& model) {
  const auto* bpe = dynamic_cast<const BpeModel*>(&model);
  return bpe ? bpe->byte_bpe() : nullptr;
}

}  // namespace mtok
