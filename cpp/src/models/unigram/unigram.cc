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
      // SentencePiece: min/max over normal pieces, in float; max starts at
      // FLT_MIN (so it is never below that tiny positive value).
      float lo = FLT_MAX, hi = FLT_MIN;
      for (const ScoredPiece& p : pieces) {
        if (p.type != PieceType::kNormal) continue;
        lo = std::min(lo, static_cast<float>(p.score));
        hi = std::max(hi, static_cast<float>(p.score));
      }
      unk_score_ = static_cast<float>(lo - static_cast<float>(kUnkPenalty));
      max_score_ = hi;
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

  std::string_view IdToToken(uint32_t id) const override { return vocab_.Token(id); }
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

  // The best path ending at each byte; ties keep the candidate whose last
  // piece starts first (HF's encode_optimized and SentencePiece's
  // EncodeOptimized). HF adds in double. For SentencePiece, path scores are
  // floats: each sum is rounded to float before it is compared (its
  // user-defined bonus, length * max_score - 0.1, is computed in double).
  void Viterbi(std::string_view s, std::vector<Step>* path) const {
    const size_t n = s.size();
    const bool spm = opt_.sentencepiece;
    struct Best {
      double score = 0;
      int64_t start = -1;
      uint32_t id = 0;
      bool unknown = false;
    };
    std::vector<Best> best(n + 1);
    for (size_t start = 0; start < n;) {
      const double here = best[start].score;
      const size_t mblen = CharLen(s, start);
      bool has_single = false;
      auto offer = [&](size_t end, double cand, uint32_t id, bool unknown) {
        if (spm) cand = static_cast<float>(cand);
        Best& target = best[end];
        if (target.start < 0 || cand > target.score) target = {cand, static_cast<int64_t>(start), id, unknown};
      };
      trie_.ForEachPrefix(s.substr(start), [&](const TriePiece& t) {
        double score = t.score;
        if (t.user_defined) score = static_cast<double>(static_cast<float>(t.token.size()) * max_score_) - 0.1;
        offer(start + t.token.size(), score + here, t.id, false);
        if (t.token.size() == mblen) has_single = true;
      });
      if (!has_single) offer(start + mblen, unk_score_ + here, opt_.unk_id, true);
      start += mblen;
    }
    for (size_t end = n; end > 0; end = static_cast<size_t>(best[end].start))
      path->push_back({static_cast<size_t>(best[end].start), end, best[end].id, best[end].unknown});
    std::reverse(path->begin(), path->end());
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
  float max_score_ = 0;
  bool has_bytes_ = false;
  uint32_t byte_ids_[256];
};

}  // namespace

std::unique_ptr<Model> MakeUnigramModel(Vocab vocab, const std::vector<ScoredPiece>& pieces,
                                        PieceModelOptions options) {
  return std::make_unique<UnigramModel>(std::move(vocab), pieces, options);
}

}  // namespace mtok
