#include "models/bpe/sentencepiece_bpe.h"

#include <algorithm>
#include <queue>
#include <unordered_map>

#include "common/utf8.h"
#include "models/model_readers.h"

namespace mtok {
namespace {

class SentencePieceBpeModel : public Model {
 public:
  SentencePieceBpeModel(Vocab vocab, const std::vector<ScoredPiece>& pieces, PieceModelOptions opt)
      : vocab_(std::move(vocab)), opt_(opt) {
    for (const ScoredPiece& p : pieces) {
      bool mergeable = p.type == PieceType::kNormal || p.type == PieceType::kUserDefined ||
                       p.type == PieceType::kUnused;
      (mergeable ? pieces_ : reserved_)[p.token] = {p.id, static_cast<float>(p.score), p.type};
      if (p.type == PieceType::kUserDefined) {
        user_max_ = std::max(user_max_, p.token.size());
      }
    }
    FindBytePieces(vocab_, byte_ids_);
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
      auto it = pieces_.find(joined);
      if (it == pieces_.end()) return;
      agenda.push({left, right, it->second.score, joined.size()});
      if (it->second.type == PieceType::kUnused)
        rev_merge[joined] = {text(symbols[left]), text(symbols[right])};
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

 private:
  struct Info {
    uint32_t id;
    float score;
    PieceType type;
  };

  // Longest user-defined piece at the start of s (0 if none).
  size_t UserDefinedPrefix(std::string_view s) const {
    for (size_t n = std::min(user_max_, s.size()); n > 0; --n) {
      auto it = pieces_.find(s.substr(0, n));
      if (it != pieces_.end() && it->second.type == PieceType::kUserDefined) return n;
    }
    return 0;
  }

  // SentencePiece's PieceToId: reserved pieces first, then the others, else unk.
  uint32_t IdOf(std::string_view w) const {
    auto r = reserved_.find(w);
    if (r != reserved_.end()) return r->second.id;
    auto it = pieces_.find(w);
    return it != pieces_.end() ? it->second.id : opt_.unk_id;
  }

  void Resegment(std::string_view s, std::string_view w,
                 const std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>>& rev,
                 bool* prev_unk, std::vector<Token>* out) const {
    uint32_t id = IdOf(w);
    auto it = pieces_.find(w);
    if (it != pieces_.end() && it->second.type == PieceType::kUnused) {
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
  PieceModelOptions opt_;
  std::unordered_map<std::string_view, Info> pieces_, reserved_;
  size_t user_max_ = 0;
  uint32_t byte_ids_[256];
};

}  // namespace

std::unique_ptr<Model> MakeSentencePieceBpeModel(Vocab vocab, const std::vector<ScoredPiece>& pieces,
                                                 PieceModelOptions options) {
  return std::make_unique<SentencePieceBpeModel>(std::move(vocab), pieces, options);
}

Status ReadSentencePieceBpe(ByteReader& r, std::unique_ptr<Model>* out) {
  uint32_t n;
  PieceModelOptions opt;
  MTOK_RETURN_IF_ERROR(ReadPieceModelHeader(r, true, &n, &opt));
  opt.sentencepiece = true;
  Vocab vocab;
  std::vector<ScoredPiece> pieces;
  MTOK_RETURN_IF_ERROR(ReadScoredPieces(r, n, true, opt, &vocab, &pieces));
  *out = MakeSentencePieceBpeModel(std::move(vocab), pieces, opt);
  return Status::Ok();
}

}  // namespace mtok
