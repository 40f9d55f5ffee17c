// SentencePiece's BPE encoder (.model sources): starting from characters
// (user-defined symbols whole and frozen), repeatedly merge the adjacent pair
// whose concatenation is a piece with the highest score (ties: leftmost),
// split unused pieces back into the pair that made them, and spell unknown
// results as bytes (byte fallback) or one fused unk id. Read by
// ReadSentencePieceBpe (models/model_readers.h).
#include <algorithm>
#include <iterator>
#include <queue>
#include <unordered_map>

#include "common/utf8.h"
#include "io/codes.h"
#include "models/model_readers.h"

namespace mtok {
namespace {

class SentencePieceBpeModel : public Model {
 public:
  // `info[id]`: score and type of each id; SentencePiece vocabs have no
  // repeated pieces, so the vocab's string lookup finds every piece.
  SentencePieceBpeModel(Vocab vocab, std::vector<PieceInfo> info, PieceModelOptions opt)
      : vocab_(std::move(vocab)), info_(std::move(info)), opt_(opt) {
    for (uint32_t id = 0; id < info_.size(); ++id) {
      if (info_[id].type == PieceType::kUserDefined)
        user_max_ = std::max(user_max_, vocab_.Token(id).size());
    }
    // Only byte fallback reads them (each lookup may fault in a page of the file).
    std::fill(std::begin(byte_ids_), std::end(byte_ids_), UINT32_MAX);
    if (opt_.byte_fallback) FindBytePieces(vocab_, byte_ids_);
  }

  void Tokenize(const Piece& p, std::vector<Token>* out) const override {
    const std::string_view s = p.text;
    struct Symbol {
      int prev, next;
      bool freeze;
      size_t begin, size;
    };
    std::vector<Symbol> symbols;
    for (size_t at = 0; at < s.size();) {
      bool freeze = false;
      size_t len = UserDefinedPrefix(s.substr(at));
      if (len) {
        freeze = true;
      } else {
        len = std::min<size_t>(utf8::seq_len(static_cast<uint8_t>(s[at])), s.size() - at);
      }
      int i = static_cast<int>(symbols.size());
      symbols.push_back({i - 1, at + len < s.size() ? i + 1 : -1, freeze, at, len});
      at += len;
    }
    if (symbols.empty()) return;

    struct Pair {
      int left, right;
      float score;
      size_t size;
    };
    auto worse = [](const Pair& a, const Pair& b) {
      return a.score < b.score || (a.score == b.score && a.left > b.left);
    };
    std::priority_queue<Pair, std::vector<Pair>, decltype(worse)> agenda(worse);
    // Unused pieces: the pair each was made from, to split it back.
    std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>> rev_merge;
    auto text = [&](const Symbol& x) { return s.substr(x.begin, x.size); };
    auto maybe_add = [&](int left, int right) {
      if (left < 0 || right < 0 || symbols[left].freeze || symbols[right].freeze) return;
      std::string_view joined = s.substr(symbols[left].begin, symbols[left].size + symbols[right].size);
      const PieceInfo* it = Mergeable(joined);
      if (it == nullptr) return;
      agenda.push({left, right, it->score, joined.size()});
      if (it->type == PieceType::kUnused) rev_merge[joined] = {text(symbols[left]), text(symbols[right])};
    };
    for (size_t i = 1; i < symbols.size(); ++i) maybe_add(static_cast<int>(i) - 1, static_cast<int>(i));
    while (!agenda.empty()) {
      Pair top = agenda.top();
      agenda.pop();
      Symbol& l = symbols[top.left];
      Symbol& r = symbols[top.right];
      if (l.size == 0 || r.size == 0 || l.size + r.size != top.size) continue;  // stale
      l.size += r.size;
      l.next = r.next;
      if (r.next >= 0) symbols[r.next].prev = top.left;
      r.size = 0;
      maybe_add(l.prev, top.left);
      maybe_add(top.left, l.next);
    }

    bool prev_unk = false;
    for (int i = 0; i >= 0; i = symbols[i].next) {
      Resegment(s, text(symbols[i]), rev_merge, &prev_unk, out);
    }
  }

  std::string_view IdToToken(uint32_t id) const override { return vocab_.TokenText(id); }
  bool TokenToId(std::string_view token, uint32_t* id) const override {
    return vocab_.Find(token, id);
  }
  uint32_t VocabSize() const override { return vocab_.size(); }
  uint32_t IdLimit() const override { return vocab_.id_limit(); }

  void AccelSections(const uint8_t* base,
                     std::vector<std::pair<uint32_t, std::string>>* out) const override {
    AppendVocabSections(vocab_, base, 13, out);  // [u32 id][f64 score][u8 type]
  }

 private:
  // The piece `w` if merging may produce it (normal, user-defined or
  // unused), else null.
  const PieceInfo* Mergeable(std::string_view w) const {
    uint32_t id;
    if (!vocab_.Find(w, &id) || id >= info_.size()) return nullptr;
    const PieceInfo& p = info_[id];
    return p.type == PieceType::kNormal || p.type == PieceType::kUserDefined || p.type == PieceType::kUnused
               ? &p
               : nullptr;
  }

  // Longest user-defined piece at the start of s (0 if none).
  size_t UserDefinedPrefix(std::string_view s) const {
    for (size_t n = std::min(user_max_, s.size()); n > 0; --n) {
      const PieceInfo* p = Mergeable(s.substr(0, n));
      if (p != nullptr && p->type == PieceType::kUserDefined) return n;
    }
    return 0;
  }

  // SentencePiece's PieceToId: the piece's id, else unk.
  uint32_t IdOf(std::string_view w) const {
    uint32_t id;
    return vocab_.Find(w, &id) ? id : opt_.unk_id;
  }

  void Resegment(std::string_view s, std::string_view w,
                 const std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>>& rev,
                 bool* prev_unk, std::vector<Token>* out) const {
    uint32_t id = IdOf(w);
    const PieceInfo* it = Mergeable(w);
    if (it != nullptr && it->type == PieceType::kUnused) {
      auto m = rev.find(w);
      if (m != rev.end()) {
        Resegment(s, m->second.first, rev, prev_unk, out);
        Resegment(s, m->second.second, rev, prev_unk, out);
        return;
      }
    }
    const uint32_t b = static_cast<uint32_t>(w.data() - s.data());
    const uint32_t e = b + static_cast<uint32_t>(w.size());
    const bool unk = id == opt_.unk_id;
    if (unk && opt_.byte_fallback) {
      for (char c : w) out->push_back({byte_ids_[static_cast<uint8_t>(c)], b, e});
    } else if (unk && *prev_unk) {
      out->back().end = e;  // SentencePiece fuses a run of unknowns
    } else {
      out->push_back({id, b, e});
    }
    *prev_unk = unk;
  }

  Vocab vocab_;
  std::vector<PieceInfo> info_;
  PieceModelOptions opt_;
  size_t user_max_ = 0;
  uint32_t byte_ids_[256];
};

}  // namespace

Status ReadSentencePieceBpe(ByteReader& r, const SectionTable& trailer, std::unique_ptr<Model>* out) {
  uint32_t n;
  PieceModelOptions opt;
  MTOK_RETURN_IF_ERROR(ReadPieceModelHeader(r, true, &n, &opt));
  opt.sentencepiece = true;
  Vocab vocab;
  std::vector<PieceInfo> info;
  bool adopted;
  MTOK_RETURN_IF_ERROR(AdoptVocab(r, trailer, n, &vocab, &adopted));
  if (adopted) {
    MTOK_RETURN_IF_ERROR(PieceInfoFromRecords(vocab, &info));
  } else {
    // Each piece's score and type straight into `info`: a vector of the
    // pieces was 32 bytes each of fresh memory (a 32k vocab: 1 MB).
    MTOK_RETURN_IF_ERROR(r.CheckArray(n, 15));  // before reserving for n
    info.reserve(n);
    MTOK_RETURN_IF_ERROR(ReadScoredPieces(r, n, true, opt, &vocab, [&info](const ScoredPiece& p) {
      if (p.id >= info.size()) info.resize(p.id + 1);
      info[p.id] = {static_cast<float>(p.score), p.type};
    }));
    info.resize(vocab.id_limit());
  }
  if (!vocab.Has(opt.unk_id)) return r.Error("unk id " + std::to_string(opt.unk_id) + " is not in the vocab");
  *out = std::make_unique<SentencePieceBpeModel>(std::move(vocab), std::move(info), opt);
  return Status::Ok();
}

}  // namespace mtok
