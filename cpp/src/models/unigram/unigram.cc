#include "models/unigram/unigram.h"

#include <algorithm>
#include <cfloat>
#include <limits>

#include "common/utf8.h"
#include "models/unigram/piece_trie.h"

namespace mtok {
namespace {

constexpr double kUnkPenalty = 10.0;

std::vector<TriePiece> LatticePieces(const std::vector<ScoredPiece>& pieces, bool spm) {
  std::vector<TriePiece> out;
  out.reserve(pieces.size());
  // HF: "last wins" follows file order, which is id order in tokenizer.json.
  std::vector<const ScoredPiece*> by_id(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) by_id[i] = &pieces[i];
  std::stable_sort(by_id.begin(), by_id.end(),
                   [](const ScoredPiece* a, const ScoredPiece* b) { return a->id < b->id; });
  for (const ScoredPiece* p : by_id) {
    // SentencePiece keeps control, unknown and byte pieces out of text
    // matching; unused pieces are in its trie but never chosen.
    if (spm && p->type != PieceType::kNormal && p->type != PieceType::kUserDefined) continue;
    double score = spm ? static_cast<double>(static_cast<float>(p->score)) : p->score;
    out.push_back({p->token, p->id, score, spm && p->type == PieceType::kUserDefined});
  }
  return out;
}

class UnigramModel : public Model {
 public:
  UnigramModel(Vocab vocab, const std::vector<ScoredPiece>& pieces, PieceModelOptions opt)
      : vocab_(std::move(vocab)), opt_(opt), trie_(LatticePieces(pieces, opt.sentencepiece)) {
    if (opt_.sentencepiece) {
      // SentencePiece: the minimum over normal pieces, in float.
      float lo = FLT_MAX;
      for (const ScoredPiece& p : pieces) {
        if (p.type != PieceType::kNormal) continue;
        lo = std::min(lo, static_cast<float>(p.score));
      }
      unk_score_ = static_cast<float>(lo - static_cast<float>(kUnkPenalty));
    } else {
      double lo = std::numeric_limits<double>::infinity();
      for (const ScoredPiece& p : pieces) lo = std::min(lo, p.score);
      unk_score_ = lo - kUnkPenalty;
    }
    has_bytes_ = FindBytePieces(vocab_, byte_ids_);
  }

  void Tokenize(const Piece& p, std::vector<Token>* out) const override {
    const std::string_view s = p.text;
    std::vector<Step> path;
    Viterbi(s, &path);
    // Emit left to right, fusing runs of unknown ids.
    size_t unk_begin = 0, unk_nodes = 0;
    bool unk_from_vocab = false;
    auto flush = [&](size_t end) {
      if (unk_nodes == 0) return;
      EmitUnknown(s, unk_begin, end, unk_nodes == 1 && unk_from_vocab, out);
      unk_nodes = 0;
    };
    for (const Step& b : path) {
      if (b.id == opt_.unk_id) {
        if (unk_nodes == 0) unk_begin = b.begin;
        unk_from_vocab = !b.unknown;
        ++unk_nodes;
      } else {
        flush(b.begin);
        out->push_back({b.id, static_cast<uint32_t>(b.begin), static_cast<uint32_t>(b.end)});
      }
    }
    flush(s.size());
  }

  std::string_view IdToToken(uint32_t id) const override { return vocab_.TokenText(id); }
  bool TokenToId(std::string_view token, uint32_t* id) const override {
    return vocab_.Find(token, id);
  }
  uint32_t VocabSize() const override { return vocab_.size(); }
  uint32_t IdLimit() const override { return vocab_.id_limit(); }
  bool TokenIsText(uint32_t id) const override { return id == opt_.unk_id; }

 private:
  struct Step {
    size_t begin, end;
    uint32_t id;
    bool unknown;  // the inserted unknown node, not a vocab match
  };

  static size_t CharLen(std::string_view s, size_t at) {
    return std::min<size_t>(utf8::seq_len(static_cast<uint8_t>(s[at])), s.size() - at);
  }

  struct Best {
    double score = 0;
    int64_t start = -1;
    uint32_t id = 0;
    bool unknown = false;
  };

  void Viterbi(std::string_view s, std::vector<Step>* path) const {
    std::vector<Best> best(s.size() + 1);
    if (opt_.sentencepiece) {
      ViterbiSentencePiece(s, best.data());
    } else {
      ViterbiHf(s, best.data());
    }
    for (size_t end = s.size(); end > 0; end = static_cast<size_t>(best[end].start))
      path->push_back({static_cast<size_t>(best[end].start), end, best[end].id, best[end].unknown});
    std::reverse(path->begin(), path->end());
  }

  // Keeps `cand` at `end` if it is the first candidate there or strictly
  // better: ties keep the path whose last piece starts first.
  static void Offer(Best* target, double cand, size_t start, uint32_t id, bool unknown) {
    if (target->start >= 0 && !(cand > target->score)) return;
    *target = {cand, static_cast<int64_t>(start), id, unknown};
  }

  // HF's encode_optimized: the best path ending at each byte, summed in
  // double.
  void ViterbiHf(std::string_view s, Best* best) const {
    for (size_t start = 0; start < s.size();) {
      const double here = best[start].score;
      const size_t mblen = CharLen(s, start);
      bool has_single = false;
      trie_.ForEachPrefix(s.substr(start), [&](const TriePiece& t) {
        Offer(&best[start + t.token.size()], t.score + here, start, t.id, false);
        has_single = has_single || t.token.size() == mblen;
      });
      if (!has_single) Offer(&best[start + mblen], unk_score_ + here, start, opt_.unk_id, true);
      start += mblen;
    }
  }

  // SentencePiece 0.2.3's EncodeOptimized, to the rounding: path scores are
  // floats summed in float. When the score at the current start leaves
  // [-1e5, 1e5], every path score from there to the furthest end reached is
  // rebased by subtracting it, which keeps float precision on long inputs
  // and so decides near-ties. A user-defined piece scores
  // float((bytes - 1) * 0.1).
  void ViterbiSentencePiece(std::string_view s, Best* best) const {
    constexpr float kRebaseAt = 1e5f;
    size_t furthest = 0;
    const float unk_score = static_cast<float>(unk_score_);
    for (size_t start = 0; start < s.size();) {
      float here = static_cast<float>(best[start].score);
      if (here < -kRebaseAt || here > kRebaseAt) {
        for (size_t at = start; at <= furthest; ++at) {
          if (at != start && best[at].start < 0) continue;
          best[at].score = static_cast<float>(static_cast<float>(best[at].score) - here);
        }
        best[start].score = 0;
        here = 0;
      }
      const size_t mblen = CharLen(s, start);
      bool has_single = false;
      trie_.ForEachPrefix(s.substr(start), [&](const TriePiece& t) {
        const size_t len = t.token.size();
        furthest = std::max(furthest, start + len);
        const float score = t.user_defined ? static_cast<float>(static_cast<double>(len - 1) * 0.1)
                                           : static_cast<float>(t.score);
        Offer(&best[start + len], static_cast<float>(score + here), start, t.id, false);
        has_single = has_single || len == mblen;
      });
      if (!has_single) {
        furthest = std::max(furthest, start + mblen);
        Offer(&best[start + mblen], static_cast<float>(unk_score + here), start, opt_.unk_id, true);
      }
      start += mblen;
    }
  }

  // A run of unknown-id nodes [b, e): one vocab match of the unk token stays
  // itself; otherwise its bytes when byte fallback can spell them all, else
  // one unk id.
  void EmitUnknown(std::string_view s, size_t b, size_t e, bool single_match,
                   std::vector<Token>* out) const {
    if (!single_match && opt_.byte_fallback) {
      bool all = has_bytes_;
      if (!opt_.sentencepiece && !all) {
        all = true;
        for (size_t i = b; i < e; ++i) all = all && byte_ids_[static_cast<uint8_t>(s[i])] != UINT32_MAX;
      }
      if (all) {
        for (size_t i = b; i < e; ++i)
          out->push_back({byte_ids_[static_cast<uint8_t>(s[i])], static_cast<uint32_t>(b),
                          static_cast<uint32_t>(e)});
        return;
      }
    }
    out->push_back({opt_.unk_id, static_cast<uint32_t>(b), static_cast<uint32_t>(e)});
  }

  Vocab vocab_;
  PieceModelOptions opt_;
  PieceTrie trie_;
  double unk_score_ = 0;
  bool has_bytes_ = false;
  uint32_t byte_ids_[256];
};

}  // namespace

std::unique_ptr<Model> MakeUnigramModel(Vocab vocab, const std::vector<ScoredPiece>& pieces,
                                        PieceModelOptions options) {
  return std::make_unique<UnigramModel>(std::move(vocab), pieces, options);
}

}  // namespace mtok
