#include "models/bpe/byte_bpe.h"

#include <queue>

#include "common/byte_level.h"
#include "common/utf8.h"

namespace mtok {

namespace {

// Raw bytes of a byte-level token string; false when a character is outside
// the byte-level alphabet (such tokens cannot come out of byte-level BPE).
bool TokenBytes(std::string_view token, std::string* out) {
  out->clear();
  for (size_t i = 0; i < token.size();) {
    int len;
    char32_t c = utf8::decode(token, i, &len);
    int b = byte_level::CharToByte(c);
    if (b < 0) return false;
    out->push_back(static_cast<char>(b));
    i += len;
  }
  return true;
}

// Pieces up to this many bytes merge with a linear scan per step (cache
// friendly); longer ones use a heap so the worst case stays n log n.
constexpr size_t kSmallPiece = 48;

}  // namespace

// Raw bytes of every token (empty for tokens outside the alphabet) and
// their index.
void BuildRawTables(const Vocab& vocab, RawTables* t) {
  t->count = vocab.id_limit();
  t->owned_offsets.assign(size_t(t->count) + 1, 0);
  std::string raw;
  for (uint32_t id = 0; id < t->count; ++id) {
    t->owned_offsets[id] = static_cast<uint32_t>(t->owned_bytes.size());
    if (vocab.Has(id) && TokenBytes(vocab.Token(id), &raw)) t->owned_bytes += raw;
  }
  t->owned_offsets[t->count] = static_cast<uint32_t>(t->owned_bytes.size());
  t->offsets = t->owned_offsets.data();
  t->bytes = t->owned_bytes.data();
  t->bytes_size = static_cast<uint32_t>(t->owned_bytes.size());
  t->index.Build(t->count, [t](uint32_t id) {
    std::string_view k = t->Token(id);
    return k.empty() ? std::string_view() : k;
  });
}

std::unique_ptr<ByteBpe> ByteBpe::Build(const Vocab& vocab, BpeTables* tables,
                                        const BpeOptions& opt) {
  if (opt.byte_fallback || opt.has_unk || !opt.continuing_subword_prefix.empty() ||
      !opt.end_of_word_suffix.empty())
    return nullptr;
  std::unique_ptr<ByteBpe> b(new ByteBpe());
  b->rank_merges_ = opt.rank_merges;
  b->ignore_merges_ = opt.ignore_merges;
  const auto& t = byte_level::tables();
  std::string key;
  for (int i = 0; i < 256; ++i) {
    key.clear();
    utf8::append(key, t.byte_to_char[i]);
    if (!vocab.Find(key, &b->byte_id_[i])) return nullptr;
  }
  if (tables->raw.empty()) BuildRawTables(vocab, &tables->raw);
  b->raw_ = &tables->raw;
  b->pairs_ = &tables->pairs;
  return b;
}

bool ByteBpe::PairRank(std::string_view s, const Part& a, const Part& b, uint32_t b_end,
                       uint32_t* rank, uint32_t* merged) const {
  if (rank_merges_) {
    // tiktoken: the merged bytes are contiguous in the input.
    uint32_t id;
    if (!raw_->Find(s.substr(a.start, b_end - a.start), &id)) return false;
    *rank = id;
    *merged = id;
    return true;
  }
  return pairs_->Find(a.id, b.id, rank, merged);
}

void ByteBpe::Encode(std::string_view s, std::vector<uint32_t>* out) const {
  if (s.empty()) return;
  uint32_t id;
  if (s.size() == 1) {
    out->push_back(byte_id_[static_cast<unsigned char>(s[0])]);
    return;
  }
  if (ignore_merges_ && raw_->Find(s, &id)) {
    out->push_back(id);
    return;
  }
  thread_local std::vector<Part> parts;
  parts.clear();
  for (size_t i = 0; i < s.size(); ++i) {
    parts.push_back({static_cast<uint32_t>(i), byte_id_[static_cast<unsigned char>(s[i])], kNoRank, 0});
  }
  if (s.size() <= kSmallPiece) {
    MergeSmall(s, &parts);
  } else {
    MergeLarge(s, &parts);
  }
  for (const Part& p : parts) out->push_back(p.id);
}

// Repeatedly merges the lowest-rank pair (leftmost on ties): tiktoken's
// scan, which gives the same result as HF's heap order.
void ByteBpe::MergeSmall(std::string_view s, std::vector<Part>* parts_ptr) const {
  std::vector<Part>& parts = *parts_ptr;
  auto end_of = [&](size_t i) {
    return i + 1 < parts.size() ? parts[i + 1].start : static_cast<uint32_t>(s.size());
  };
  auto update = [&](size_t i) {
    parts[i].rank = kNoRank;
    if (i + 1 < parts.size())
      PairRank(s, parts[i], parts[i + 1], end_of(i + 1), &parts[i].rank, &parts[i].merged);
  };
  for (size_t i = 0; i + 1 < parts.size(); ++i) update(i);
  while (parts.size() > 1) {
    size_t best = 0;
    uint32_t best_rank = kNoRank;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      if (parts[i].rank < best_rank) {
        best_rank = parts[i].rank;
        best = i;
      }
    }
    if (best_rank == kNoRank) break;
    parts[best].id = parts[best].merged;
    parts.erase(parts.begin() + best + 1);
    update(best);
    if (best > 0) update(best - 1);
  }
}

// HF's algorithm: a heap of candidate merges with lazy invalidation over a
// linked list of symbols.
void ByteBpe::MergeLarge(std::string_view s, std::vector<Part>* parts_ptr) const {
  std::vector<Part>& parts = *parts_ptr;
  const size_t n = parts.size();
  std::vector<int32_t> prev(n), next(n);
  std::vector<uint32_t> end(n);
  std::vector<bool> removed(n, false);
  for (size_t i = 0; i < n; ++i) {
    prev[i] = static_cast<int32_t>(i) - 1;
    next[i] = i + 1 < n ? static_cast<int32_t>(i + 1) : -1;
    end[i] = i + 1 < n ? parts[i + 1].start : static_cast<uint32_t>(s.size());
  }
  struct Cand {
    uint32_t rank, pos, merged;
    bool operator>(const Cand& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
  };
  std::priority_queue<Cand, std::vector<Cand>, std::greater<Cand>> heap;
  uint32_t rank, merged;
  for (size_t i = 0; i + 1 < n; ++i) {
    if (PairRank(s, parts[i], parts[i + 1], end[i + 1], &rank, &merged))
      heap.push({rank, static_cast<uint32_t>(i), merged});
  }
  while (!heap.empty()) {
    Cand c = heap.top();
    heap.pop();
    if (removed[c.pos] || next[c.pos] < 0) continue;
    uint32_t r = static_cast<uint32_t>(next[c.pos]);
    if (!PairRank(s, parts[c.pos], parts[r], end[r], &rank, &merged) || merged != c.merged) continue;
    parts[c.pos].id = c.merged;
    end[c.pos] = end[r];
    removed[r] = true;
    next[c.pos] = next[r];
    if (next[r] >= 0) prev[next[r]] = static_cast<int32_t>(c.pos);
    int32_t p = prev[c.pos];
    if (p >= 0 && PairRank(s, parts[p], parts[c.pos], end[c.pos], &rank, &merged))
      heap.push({rank, static_cast<uint32_t>(p), merged});
    int32_t q = next[c.pos];
    if (q >= 0 && PairRank(s, parts[c.pos], parts[q], end[q], &rank, &merged))
      heap.push({rank, c.pos, merged});
  }
  size_t w = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!removed[i]) parts[w++] = parts[i];
  }
  parts.resize(w);
}

}  // namespace mtok
