#include "models/unigram/unigram.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>

#include "common/huge_pages.h"
#include "io/codes.h"
#include "models/unigram/lattice.h"

namespace mtok {
namespace {

constexpr double kUnkPenalty = 10.0;

// After a thread has fed this many bytes to Unigram models, the trie moves
// to huge pages: short-lived tokenizers never pay for the copy.
constexpr size_t kHugePagesAfter = 64 * 1024;

// Per-thread buffers reused by every encode.
struct Scratch {
  std::vector<LatticeBest> best;
  std::vector<uint32_t> path;  // end offsets of the best path, last first
  size_t bytes_seen = 0;
};
Scratch& ThreadScratch() {
  thread_local Scratch s;
  return s;
}

// The entries the lattice may use. SentencePiece keeps control, unknown
// and byte pieces out of text matching; unused pieces are in its trie but
// never chosen. HF: every entry, later ones winning for equal strings.
// `in_byte_order`: the pieces are strictly ascending by bytes (as mtok
// writes them), so distinct: the entries are kept in that order, which is
// the trie's, instead of in id order (that the trie then sorts again).
std::vector<TrieEntry> LatticeEntries(const std::vector<ScoredPiece>& pieces, bool spm, bool in_byte_order) {
  std::vector<const ScoredPiece*> by_id(pieces.size());
  for (size_t i = 0; i < pieces.size(); ++i) by_id[i] = &pieces[i];
  if (!in_byte_order)
    std::stable_sort(by_id.begin(), by_id.end(),
                     [](const ScoredPiece* a, const ScoredPiece* b) { return a->id < b->id; });
  std::vector<TrieEntry> out;
  out.reserve(pieces.size());
  for (const ScoredPiece* p : by_id) {
    if (spm && p->type != PieceType::kNormal && p->type != PieceType::kUserDefined) continue;
    double score = spm ? static_cast<double>(static_cast<float>(p->score)) : p->score;
    out.push_back({p->token, p->id, score, spm && p->type == PieceType::kUserDefined});
  }
  return out;
}

// HF: min over all scores minus 10. SentencePiece: min over normal
// pieces, in float.
double UnknownScore(const std::vector<ScoredPiece>& pieces, bool spm) {
  if (spm) {
    float lo = FLT_MAX;
    for (const ScoredPiece& p : pieces) {
      if (p.type == PieceType::kNormal) lo = std::min(lo, static_cast<float>(p.score));
    }
    return static_cast<float>(lo - static_cast<float>(kUnkPenalty));
  }
  double lo = std::numeric_limits<double>::infinity();
  for (const ScoredPiece& p : pieces) lo = std::min(lo, p.score);
  return lo - kUnkPenalty;
}

// The trie walk counts bits at every step: with the POPCNT instruction
// that is one instruction instead of a library call. GCC builds the lattice
// twice and the loader picks the clone the CPU supports.
__attribute__((target_clones("popcnt", "default"))) void Lattice(bool spm, const BitmapTrie& trie,
                                                                   const uint8_t* s, size_t n,
                                                                   const LatticeParams& p,
                                                                   LatticeBest* best) {
  if (spm) ViterbiSentencePiece(trie, s, n, p, best);
  else ViterbiHf(trie, s, n, p, best);
}

class UnigramModel : public Model {
 public:
  UnigramModel(Vocab vocab, PieceModelOptions opt, UnigramTrie trie, size_t record_tail)
      : vocab_(std::move(vocab)), opt_(opt), params_{trie.unk_score, opt.unk_id},
        record_tail_(record_tail),
        built_(std::move(trie.built)), mapped_(trie.mapped != nullptr) {
    const TrieNode* nodes = mapped_ ? trie.mapped : built_.data();
    n_nodes_ = mapped_ ? trie.mapped_count : built_.size();
    nodes_.store(nodes, std::memory_order_release);
    // Only byte fallback reads them (each lookup may fault in a page of the file).
    std::fill(std::begin(byte_ids_), std::end(byte_ids_), UINT32_MAX);
    has_bytes_ = opt_.byte_fallback && FindBytePieces(vocab_, byte_ids_);
  }

  void Tokenize(const Piece& p, std::vector<Token>* out) const override {
    Run(p.text, [&](uint32_t id, size_t b, size_t e) {
      out->push_back({id, static_cast<uint32_t>(b), static_cast<uint32_t>(e)});
    });
  }
  void AppendIds(std::string_view text, std::vector<uint32_t>* ids) const override {
    Run(text, [&](uint32_t id, size_t, size_t) { ids->push_back(id); });
  }

  std::string_view IdToToken(uint32_t id) const override { return vocab_.TokenText(id); }
  bool TokenToId(std::string_view token, uint32_t* id) const override {
    return vocab_.Find(token, id);
  }
  uint32_t VocabSize() const override { return vocab_.size(); }
  uint32_t IdLimit() const override { return vocab_.id_limit(); }
  bool TokenIsText(uint32_t id) const override { return id == opt_.unk_id; }

  void AccelSections(const uint8_t* base,
                     std::vector<std::pair<uint32_t, std::string>>* out) const override {
    if (mapped_) return;
    const size_t before = out->size();
    AppendVocabSections(vocab_, base, record_tail_, out);
    if (out->size() != before)
      out->emplace_back(codes::tag::kUnigramTrie, UnigramTriePayload(built_, params_.unk_score));
  }

  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override {
    out->emplace_back("unigram_trie_nodes", std::to_string(n_nodes_));
    out->emplace_back("unigram_trie_source", mapped_ ? "mapped from the file (UTRI)" : "built at load");
    const char* pages = "not moved yet (moves after 64 KB of input)";
    const int state = pages_state_.load(std::memory_order_acquire);
    if (state == kMoving) pages = "being moved (a thread copies the nodes)";
    if (state == kMoved)
      pages = huge_.data() ? HugePageRegion::KindName(huge_.kind()) : "not moved (no memory for a copy)";
    out->emplace_back("unigram_trie_pages", pages);
  }

 private:
  enum : int { kNotMoved = 0, kMoving = 1, kMoved = 2 };

  // Viterbi, then emit(id, begin, end) left to right, fusing runs of
  // unknown ids.
  template <typename Emit>
  void Run(std::string_view text, Emit emit) const {
    const size_t n = text.size();
    if (n == 0) return;
    Scratch& scratch = ThreadScratch();
    if ((scratch.bytes_seen += n) >= kHugePagesAfter) MaybeMoveToHugePages();
    const BitmapTrie trie(nodes_.load(std::memory_order_acquire), n_nodes_, vocab_.id_limit());
    if (scratch.best.size() < n + 1) scratch.best.resize(n + 1);
    LatticeBest* best = scratch.best.data();
    std::fill(best, best + n + 1, LatticeBest{0, -1, 0, false});
    const uint8_t* s = reinterpret_cast<const uint8_t*>(text.data());
    Lattice(opt_.sentencepiece, trie, s, n, params_, best);

    std::vector<uint32_t>& path = scratch.path;
    path.clear();
    for (size_t end = n; end > 0; end = static_cast<size_t>(best[end].start)) path.push_back(end);
    size_t unk_begin = 0, unk_nodes = 0;
    bool unk_from_vocab = false;
    auto flush = [&](size_t end) {
      if (unk_nodes == 0) return;
      EmitUnknown(text, unk_begin, end, unk_nodes == 1 && unk_from_vocab, emit);
      unk_nodes = 0;
    };
    for (size_t k = path.size(); k-- > 0;) {
      const size_t end = path[k];
      const LatticeBest& b = best[end];
      const size_t begin = static_cast<size_t>(b.start);
      if (b.id == opt_.unk_id) {
        if (unk_nodes == 0) unk_begin = begin;
        unk_from_vocab = !b.unknown;
        ++unk_nodes;
      } else {
        flush(begin);
        emit(b.id, begin, end);
      }
    }
    flush(n);
  }

  // A run of unknown-id nodes [b, e): one vocab match of the unk token stays
  // itself; otherwise its bytes when byte fallback can spell them all, else
  // one unk id.
  template <typename Emit>
  void EmitUnknown(std::string_view s, size_t b, size_t e, bool single_match, Emit& emit) const {
    if (!single_match && opt_.byte_fallback) {
      bool all = has_bytes_;
      if (!opt_.sentencepiece && !all) {
        all = true;
        for (size_t i = b; i < e; ++i) all = all && byte_ids_[static_cast<uint8_t>(s[i])] != UINT32_MAX;
      }
      if (all) {
        for (size_t i = b; i < e; ++i) emit(byte_ids_[static_cast<uint8_t>(s[i])], b, e);
        return;
      }
    }
    emit(opt_.unk_id, b, e);
  }

  // Copies the nodes onto huge pages once, on a thread of its own (XLM-R's
  // 20 MB held up the encode that set it off for about 50 ms); encodes
  // running meanwhile keep the old copy, which stays valid for the model's
  // lifetime.
  void MaybeMoveToHugePages() const {
    int expected = kNotMoved;
    if (pages_state_.load(std::memory_order_relaxed) != kNotMoved ||
        !pages_state_.compare_exchange_strong(expected, kMoving))
      return;
    auto move = [this] {
      const size_t bytes = n_nodes_ * sizeof(TrieNode);
      if (huge_.Allocate(bytes)) {
        std::memcpy(huge_.data(), nodes_.load(std::memory_order_relaxed), bytes);
        nodes_.store(reinterpret_cast<const TrieNode*>(huge_.data()), std::memory_order_release);
      }
      pages_state_.store(kMoved, std::memory_order_release);
    };
    if (!mover_.Start(move)) move();
  }

  Vocab vocab_;
  PieceModelOptions opt_;
  LatticeParams params_;
  size_t record_tail_;  // bytes after a vocab record's token: id, score, type
  std::vector<TrieNode> built_;  // empty when the nodes are mapped
  bool mapped_;
  size_t n_nodes_ = 0;
  mutable std::atomic<const TrieNode*> nodes_{nullptr};
  mutable std::atomic<int> pages_state_{kNotMoved};
  mutable HugePageRegion huge_;
  bool has_bytes_ = false;
  uint32_t byte_ids_[256];
  // Last: destroyed first, waiting for a copy still running (it reads the
  // nodes, and writes huge_).
  mutable PopulateAhead mover_;
};

}  // namespace

UnigramTrie BuildUnigramTrie(const std::vector<ScoredPiece>& pieces, bool sentencepiece) {
  UnigramTrie t;
  bool ascending = true;
  for (size_t i = 1; i < pieces.size() && ascending; ++i) ascending = pieces[i - 1].token < pieces[i].token;
  t.built = BuildBitmapTrie(LatticeEntries(pieces, sentencepiece, ascending), ascending);
  t.unk_score = UnknownScore(pieces, sentencepiece);
  return t;
}

std::string UnigramTrieHeader(size_t node_count, double unk_score) {
  // [u32 node_count][u32 0][f64 unk_score][48 zero bytes], so that the
  // nodes start 64 bytes into a 64-byte-aligned payload.
  std::string out(64, '\0');
  const uint32_t count = static_cast<uint32_t>(node_count);
  std::memcpy(&out[0], &count, 4);
  std::memcpy(&out[8], &unk_score, 8);
  return out;
}

std::string UnigramTriePayload(const std::vector<TrieNode>& nodes, double unk_score) {
  std::string out = UnigramTrieHeader(nodes.size(), unk_score);
  out.append(reinterpret_cast<const char*>(nodes.data()), nodes.size() * sizeof(TrieNode));
  return out;
}

Status ParseUnigramTrie(std::string_view payload, UnigramTrie* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section UTRI: " + what); };
  if (payload.size() < 64) return fail("too short");
  if (reinterpret_cast<uintptr_t>(payload.data()) % 64 != 0) return fail("payload is not 64-byte aligned");
  uint32_t count;
  std::memcpy(&count, payload.data(), 4);
  std::memcpy(&out->unk_score, payload.data() + 8, 8);
  if (!std::isfinite(out->unk_score)) return fail("unknown score is not finite");
  if (count == 0 || (payload.size() - 64) / sizeof(TrieNode) != count ||
      (payload.size() - 64) % sizeof(TrieNode) != 0)
    return fail("size does not match its node count " + std::to_string(count));
  out->mapped = reinterpret_cast<const TrieNode*>(payload.data() + 64);
  out->mapped_count = count;
  return Status::Ok();
}

std::unique_ptr<Model> MakeUnigramModel(Vocab vocab, PieceModelOptions options, UnigramTrie trie,
                                        size_t record_tail) {
  return std::make_unique<UnigramModel>(std::move(vocab), options, std::move(trie), record_tail);
}

}  // namespace mtok
