#include "models/bpe/byte_bpe.h"

#include <algorithm>

#include "common/byte_level.h"
#include "common/huge_pages.h"
#include "common/utf8.h"
#include "models/bpe/merge_key.h"
#include "models/bpe/merge_queue.h"
#include "models/bpe/pair_memo.h"

namespace mtok {

namespace {

// Appends the raw bytes of a byte-level token string to *out; false (and
// *out as it was) when a character is outside the byte-level alphabet (such
// tokens cannot come out of byte-level BPE). The alphabet is U+0021-U+0143:
// one or two UTF-8 bytes, decoded here without a general decoder.
bool AppendTokenBytes(std::string_view token, std::string* out) {
  const size_t at = out->size();
  out->resize(at + token.size());
  char* w = out->data() + at;
  const auto& chars = byte_level::tables().char_to_byte;
  for (size_t i = 0; i < token.size();) {
    const auto c = static_cast<unsigned char>(token[i]);
    int b = -1;
    if (c < 0x80) {
      b = chars[c];
      i += 1;
    } else if (c >= 0xC2 && c <= 0xC5 && i + 1 < token.size() &&
               (static_cast<unsigned char>(token[i + 1]) & 0xC0) == 0x80) {
      b = chars[((c & 0x1Fu) << 6) | (static_cast<unsigned char>(token[i + 1]) & 0x3Fu)];
      i += 2;
    }
    if (b < 0) {
      out->resize(at);
      return false;
    }
    *w++ = static_cast<char>(b);
  }
  out->resize(static_cast<size_t>(w - out->data()));
  return true;
}

// Pieces of up to this many symbols (bytes, or folded characters) merge
// with a linear scan per step (cache friendly, and no per-thread bucket
// array to set up: CJK clauses of 50-128 bytes took 3x the instructions a
// byte through the MergeQueue, and a thread's first long piece paid for
// the queue's bucket per rank); longer ones use a MergeQueue so the worst
// case stays linear. Part links are uint8_t, with parts[n] the end mark.
constexpr size_t kSmallParts = merge_key::kPositions - 1;
static_assert(kSmallParts <= 0xFF, "a part's links are uint8_t");

// Pieces longer than this (bytes) free MergeLarge's scratch when done.
constexpr size_t kKeepScratch = size_t{4} << 20;

}  // namespace

// Raw bytes of every token (empty for tokens outside the alphabet) and
// their index.
void BuildRawTables(const Vocab& vocab, RawTables* t) {
  t->count = vocab.id_limit();
  t->owned_offsets.assign(size_t(t->count) + 1, 0);
  for (uint32_t id = 0; id < t->count; ++id) {
    t->owned_offsets[id] = static_cast<uint32_t>(t->owned_bytes.size());
    const std::string_view token = vocab.Token(id);
    if (token.data() != nullptr) AppendTokenBytes(token, &t->owned_bytes);
  }
  t->owned_offsets[t->count] = static_cast<uint32_t>(t->owned_bytes.size());
  t->offsets = t->owned_offsets.data();
  t->bytes = t->owned_bytes.data();
  t->bytes_size = static_cast<uint32_t>(t->owned_bytes.size());
  // Distinct tokens have distinct bytes (the alphabet maps each byte to its
  // own character).
  t->index.Build(t->count, [t](uint32_t id) {
    std::string_view k = t->Token(id);
    return k.empty() ? std::string_view() : k;
  }, vocab.ascending(), /*tags=*/true);
  t->IndexLengths();
}

std::unique_ptr<ByteBpe> ByteBpe::Build(const Vocab& vocab, BpeTables* tables,
                                        const BpeOptions& opt) {
  if (opt.byte_fallback || opt.has_unk || !opt.continuing_subword_prefix.empty() ||
      !opt.end_of_word_suffix.empty())
    return nullptr;
  std::unique_ptr<ByteBpe> b(new ByteBpe());
  b->rank_merges_ = opt.rank_merges;
  b->serial_ = NewOwnerSerial();
  b->ignore_merges_ = opt.ignore_merges;
  // Each byte's token: from the raw index when the file carries one (it
  // is in memory already; each lookup in the vocab's hash faults in a page
  // of the file in a fresh process, 0.3 ms for the 256), else the vocab's.
  const auto& t = byte_level::tables();
  const bool have_raw = !tables->raw.empty();
  std::string key;
  for (int i = 0; i < 256; ++i) {
    bool found;
    if (have_raw) {
      const char byte = static_cast<char>(i);
      found = tables->raw.Find(std::string_view(&byte, 1), &b->byte_id_[i]);
    } else {
      key.clear();
      utf8::append(key, t.byte_to_char[i]);
      found = vocab.Find(key, &b->byte_id_[i]);
    }
    if (!found) return nullptr;
  }
  if (!have_raw) BuildRawTables(vocab, &tables->raw);
  b->raw_ = &tables->raw;
  b->pairs_ = &tables->pairs;
  if (!tables->fold.empty()) b->fold_ = &tables->fold;
  if (!tables->whole.empty()) b->whole_ = &tables->whole;
  if (!tables->pair_filter.empty()) b->filter_ = &tables->pair_filter;
  if (!tables->spans.empty()) b->spans_.store(&tables->spans, std::memory_order_release);
  // The file's table (the reader checked it): nothing to build.
  if (!tables->short_tokens.empty() && ShortTokens::Parse(tables->short_tokens, tables->raw.count, &b->shorts_).ok()) {
    b->shorts_started_.store(true, std::memory_order_relaxed);
    b->shorts_ready_.store(&b->shorts_, std::memory_order_release);
  }
  static_assert(std::atomic<uint64_t>::is_always_lock_free, "byte-pair entries are plain words");
  b->byte_pairs_.reset(static_cast<std::atomic<uint64_t>*>(std::calloc(size_t{1} << 16, sizeof(uint64_t))));
  if (!b->byte_pairs_) throw std::bad_alloc();
  // Filled ahead on a thread of its own (about 1 ms for Llama 3, mostly
  // answered by the pair filter): a fresh process's first encodes then
  // find their byte pairs known instead of looking each up in the pair
  // tables, their table pages faulted in one at a time (the first 16 KB
  // windows about a third faster, bench/README.md, twenty-fourth
  // session). Encodes meanwhile fill what they meet first, as before.
  // Not while tiktoken's merges would have the thread start the short-token
  // build (a lock: a process forked meanwhile would inherit it held).
  ByteBpe* self = b.get();
  if (!self->rank_merges_ || self->shorts_ready_.load(std::memory_order_acquire) != nullptr)
    self->pairs_ahead_.Start([self] { self->FillBytePairs(); });
  return b;
}

void ByteBpe::FillBytePairs() const {
  // Pairs of printable ASCII first: most text's first words.
  for (const bool ascii : {true, false}) {
    for (unsigned b0 = 0; b0 < 256; ++b0) {
      for (unsigned b1 = 0; b1 < 256; ++b1) {
        if ((b0 - 0x20 < 0x5F && b1 - 0x20 < 0x5F) != ascii) continue;
        std::atomic<uint64_t>& e = byte_pairs_.get()[b0 << 8 | b1];
        if (e.load(std::memory_order_relaxed) == 0)
          FillBytePair(static_cast<unsigned char>(b0), static_cast<unsigned char>(b1), &e);
      }
    }
  }
}

std::string ByteBpe::BytePairsInfo() const {
  size_t known = 0;
  for (size_t i = 0; i < size_t{1} << 16; ++i) known += byte_pairs_.get()[i].load(std::memory_order_relaxed) != 0;
  return std::to_string(known) + " of 65536 byte pairs known" +
         (pairs_ahead_.Done() ? "" : " (being filled on a thread of its own)");
}

bool ByteBpe::PairRank(std::string_view s, uint32_t a_start, uint32_t a_id, uint32_t b_id,
                       uint32_t b_end, uint32_t* rank, uint32_t* merged) const {
  if (!rank_merges_) pairs_->Prefetch(a_id, b_id);
  if (filter_ != nullptr && !filter_->MayMerge(a_id, b_id)) return false;
  if (rank_merges_) {
    // tiktoken: the merged bytes are contiguous in the input.
    uint32_t id;
    if (!FindToken(s.substr(a_start, b_end - a_start), &id)) return false;
    *rank = id;
    *merged = id;
    return true;
  }
  return pairs_->Find(a_id, b_id, rank, merged);
}

RankSplits ByteBpe::ComputeRankSplits() const {
  return rank_merges_ ? mtok::ComputeRankSplits(*raw_) : RankSplits();
}

uint64_t ByteBpe::FillBytePair(unsigned char b0, unsigned char b1, std::atomic<uint64_t>* e) const {
  const char bytes[2] = {static_cast<char>(b0), static_cast<char>(b1)};
  uint32_t rank, merged;
  uint64_t v = uint64_t{kNoBytePair} << 32;
  if (PairRank(std::string_view(bytes, 2), 0, byte_id_[b0], byte_id_[b1], 2, &rank, &merged))
    v = rank < kNoBytePair - 1 ? uint64_t{rank + 1} << 32 | merged : 1;
  e->store(v, std::memory_order_relaxed);
  return v;
}

PairFilter ByteBpe::ComputePairFilter(const RankSplits& splits) const {
  if (!rank_merges_) return pairs_->capacity() > 0 ? PairFilter::Build(*pairs_) : PairFilter();
  // tiktoken: a pair merges when its bytes joined are a token. The merge
  // loop holds the ids Find gives for a symbol's bytes, so the pairs are
  // known only when no two ids share their bytes.
  if (!splits.ids_unique) return PairFilter();
  PairFilter f = PairFilter::ForPairs(splits.splits.size());
  for (const TokenSplit& s : splits.splits) f.Add(s.left, s.right);
  return f;
}

void ByteBpe::PrepareThread() const { Memo(); }

PairMemo& ByteBpe::Memo() const { return PairMemo::ForThread(serial_); }

void ByteBpe::Encode(std::string_view s, std::vector<uint32_t>* out, PairMemo& memo) const {
  if (!s.empty() && !EncodeAsToken(s, out)) Merge(s, out, memo);
}

bool ByteBpe::EncodeAsToken(std::string_view s, std::vector<uint32_t>* out) const {
  return AsIs(s, ignore_merges_, out);
}

void ByteBpe::EncodePart(std::string_view s, std::vector<uint32_t>* out, PairMemo& memo) const {
  if (!s.empty() && !AsIs(s, false, out)) Merge(s, out, memo);
}

bool ByteBpe::AsIs(std::string_view s, bool any_token, std::vector<uint32_t>* out) const {
  uint32_t id;
  if (s.size() == 1) {
    out->push_back(byte_id_[static_cast<unsigned char>(s[0])]);
    return true;
  }
  if ((any_token || whole_) && FindToken(s, &id) && (any_token || whole_->Has(id))) {
    out->push_back(id);
    return true;
  }
  return false;
}

const TokenSpans& ByteBpe::Spans() const {
  if (const TokenSpans* s = spans_.load(std::memory_order_acquire)) return *s;
  std::lock_guard<std::mutex> lock(lazy_mutex_);
  if (!spans_owned_) {
    spans_owned_ = std::make_unique<TokenSpans>(TokenSpans::Build(*raw_));
    spans_.store(spans_owned_.get(), std::memory_order_release);
  }
  return *spans_owned_;
}

std::string ByteBpe::ShortTokensPayload() const {
  if (const ShortTokens* t = shorts_ready_.load(std::memory_order_acquire)) return t->Payload();
  ShortTokens t;
  return t.Build(*raw_) ? t.Payload() : std::string();
}

std::string ByteBpe::ShortTokensInfo() const {
  if (const ShortTokens* t = shorts_ready_.load(std::memory_order_acquire))
    return std::to_string(t->count()) + " tokens of up to " + std::to_string(ShortTokens::kMaxBytes) +
           " bytes, " + std::to_string(t->bytes() >> 10) + " KB";
  return shorts_started_.load(std::memory_order_relaxed) ? "being built (the raw index answers meanwhile)"
                                                         : "built at the first encode";
}

void ByteBpe::StartShorts() const {
  std::lock_guard<std::mutex> lock(lazy_mutex_);
  if (shorts_started_.load(std::memory_order_relaxed)) return;
  shorts_started_.store(true, std::memory_order_relaxed);
  auto build = [this] {
    // No memory: the raw index goes on answering.
    if (shorts_.Build(*raw_)) shorts_ready_.store(&shorts_, std::memory_order_release);
  };
  if (!shorts_ahead_.Start(build)) build();
}

size_t ByteBpe::NextCut(std::string_view s, size_t from) const {
  const TokenSpans& spans = Spans();
  for (size_t p = from + 1; p < s.size(); ++p) {
    if (!spans.MaySpan(s, p)) return p;
  }
  return s.size();
}

void ByteBpe::Merge(std::string_view s, std::vector<uint32_t>* out, PairMemo& memo) const {
  // A symbol is at most 4 bytes: a longer piece has too many.
  if (s.size() <= 4 * kSmallParts) {
    // On the stack: no thread_local lookup, no vector. parts[n] only
    // marks the end (its start is s.size()).
    Part parts[kSmallParts + 1];
    uint32_t key[merge_key::RoundUp4(kSmallParts)];
    size_t n = 0, i = 0;
    for (size_t len; i < s.size() && n < kSmallParts; i += len, ++n) {
      parts[n].start = static_cast<uint32_t>(i);
      parts[n].id = FirstSymbol(s, i, &len);
      parts[n].prev = static_cast<uint8_t>(n - 1);
      parts[n].next = static_cast<uint8_t>(n + 1);
    }
    if (i == s.size()) {
      parts[n].start = static_cast<uint32_t>(s.size());
      if (MergeSmall(s, parts, key, n, memo)) {
        for (size_t k = 0; k < n; k = parts[k].next) out->push_back(parts[k].id);
        return;
      }
    }
  }
  MergeLarge(s, out);
}

// Repeatedly merges the lowest-rank pair, leftmost on ties: tiktoken's
// scan, which gives the same result as HF's heap order. A merged symbol
// leaves a hole: parts are linked, so nothing moves, and the hole's key
// never wins again.
bool ByteBpe::MergeSmall(std::string_view s, Part* parts, uint32_t* key, size_t n, PairMemo& memo) const {
  auto end_of = [&](size_t j) { return parts[j].start; };  // j <= n
  // First-seen words look up pairs that other words looked up moments
  // ago (the byte pairs of a script's letters): the thread's memo answers
  // those from L2 instead of a table of several MB.
  bool rank_too_large = false;
  // Inlined: as a call it cost about a tenth of a cold Chinese pass's
  // instructions (three updates per merge).
  auto update = [&](size_t i) __attribute__((always_inline)) {
    key[i] = merge_key::kNone;
    const size_t j = parts[i].next;
    if (j >= n) return;
    uint32_t rank;
    if (memo.Find(parts[i].id, parts[j].id, &rank, &parts[i].merged, [&](uint32_t* r, uint32_t* merged) {
          return PairRank(s, parts[i].start, parts[i].id, parts[j].id, end_of(parts[j].next), r, merged);
        })) {
      if (rank < merge_key::kRanks) key[i] = merge_key::Make(rank, static_cast<uint32_t>(i));
      else rank_too_large = true;
    }
  };
  const bool fixed_scan = n <= merge_key::kFixedScan;
  const size_t scanned = fixed_scan ? merge_key::kFixedScan : merge_key::RoundUp4(n);
  // Keys past the last pair never win (the loop below sets the others).
  // Sixteen at once when the scan is fixed: a loop from n - 1 stored them
  // one by one.
  if (fixed_scan) std::fill_n(key, merge_key::kFixedScan, merge_key::kNone);
  else std::fill(key + n - 1, key + scanned, merge_key::kNone);
  for (size_t i = 0; i + 1 < n; ++i) {
    // Two raw bytes (a folded character is longer): the byte-pair table.
    uint32_t rank;
    const int known = parts[i + 1].start - parts[i].start == 1 && end_of(i + 2) - parts[i + 1].start == 1
                          ? BytePair(s, parts[i].start, &rank, &parts[i].merged)
                          : -1;
    if (known < 0) {
      update(i);
    } else if (known == 0) {
      key[i] = merge_key::kNone;
    } else if (rank < merge_key::kRanks) {
      key[i] = merge_key::Make(rank, static_cast<uint32_t>(i));
    } else {
      key[i] = merge_key::kNone;
      rank_too_large = true;
    }
  }
  // Part 0 is never merged away (a merge removes its right symbol), so
  // the list always starts there.
  auto lowest = [&] { return fixed_scan ? merge_key::Lowest16(key) : merge_key::Lowest(key, n); };
  for (uint32_t k = lowest(); k != merge_key::kNone;) {
    const size_t best = merge_key::Position(k), gone = parts[best].next, after = parts[gone].next;
    const size_t before = parts[best].prev;  // (part 0's is never read)
    // The two pairs the merge makes, fetched while the list is relinked.
    if (after < n) memo.Prefetch(parts[best].merged, parts[after].id);
    if (best > 0) memo.Prefetch(parts[before].id, parts[best].merged);
    parts[best].id = parts[best].merged;
    parts[best].next = static_cast<uint8_t>(after);
    if (after < n) parts[after].prev = static_cast<uint8_t>(best);
    key[gone] = merge_key::kNone;
    key[best] = merge_key::kNone;
    if (best > 0) key[before] = merge_key::kNone;
    // The other keys' minimum does not wait for the two look-ups below (a
    // memo slot, or the pair tables: a first-seen word's longest waits),
    // so the CPU scans while they load.
    const uint32_t others = lowest();
    update(best);
    k = others < key[best] ? others : key[best];
    if (best > 0) {
      update(before);
      k = k < key[before] ? k : key[before];
    }
  }
  return !rank_too_large;
}

namespace {

// Symbol i of a long pre-token starts at byte i and ends where its next one
// starts.
struct LargeSym {
  uint32_t id;  // kRemoved: merged into its left neighbour, or inside a folded character
  int32_t prev, next;
};

// The symbols of pieces past this size (bytes of LargeSym) live on 2 MB
// pages: the merges visit them in rank order, all over the piece, and on
// 4 KB pages most visits also missed the TLB.
constexpr size_t kHugeSymBytes = size_t{2} << 20;

struct LargeScratch {
  std::vector<LargeSym> syms;
  std::unique_ptr<HugePageRegion> huge_syms;
  size_t huge_cap = 0;  // LargeSyms huge_syms holds
  MergeQueue queue;

  // Room for n symbols (contents undefined).
  LargeSym* Syms(size_t n) {
    if (n * sizeof(LargeSym) < kHugeSymBytes) {
      syms.resize(n);
      return syms.data();
    }
    if (n > huge_cap) {
      auto region = std::make_unique<HugePageRegion>();
      if (!region->Allocate(n * sizeof(LargeSym))) throw std::bad_alloc();
      huge_syms = std::move(region);
      huge_cap = n;
    }
    return reinterpret_cast<LargeSym*>(huge_syms->data());
  }
  // Frees all of it.
  void Release() {
    std::vector<LargeSym>().swap(syms);
    huge_syms.reset();
    huge_cap = 0;
    queue.Release();
  }
};

// Not inlined: the compiler would otherwise recompute the thread_local's
// address (a call into the loader, in a shared library) at every use.
[[gnu::noinline]] LargeScratch& ThreadScratch() {
  thread_local LargeScratch scratch;
  return scratch;
}

}  // namespace

// HF's algorithm (merge the lowest rank, leftmost on ties, with lazy
// invalidation of stale candidates) over a linked list in one flat array,
// with a MergeQueue instead of a heap: linear in the piece length.
void ByteBpe::MergeLarge(std::string_view s, std::vector<uint32_t>* out) const {
  static constexpr uint32_t kRemoved = 0xFFFFFFFFu;
  LargeScratch& scratch = ThreadScratch();
  MergeQueue& queue = scratch.queue;
  PairMemo& memo = PairMemo::ForThread(serial_);
  const size_t n = s.size();
  LargeSym* const syms = scratch.Syms(n);
  // A folded character's symbol sits at its first byte; its other bytes
  // start no symbol.
  for (size_t i = 0, len, prev = 0; i < n; prev = i, i += len) {
    syms[i].id = FirstSymbol(s, i, &len);
    syms[i].prev = i == 0 ? -1 : static_cast<int32_t>(prev);
    syms[i].next = i + len < n ? static_cast<int32_t>(i + len) : -1;
    for (size_t k = 1; k < len; ++k) syms[i + k].id = kRemoved;
  }
  // The merge of symbol a with the next one, b.
  auto pair = [&](uint32_t a, uint32_t b, uint32_t* rank, uint32_t* merged) {
    return memo.Find(syms[a].id, syms[b].id, rank, merged, [&](uint32_t* r, uint32_t* m) {
      const int32_t after = syms[b].next;
      const uint32_t b_end = after >= 0 ? static_cast<uint32_t>(after) : static_cast<uint32_t>(n);
      return PairRank(s, a, syms[a].id, syms[b].id, b_end, r, m);
    });
  };
  queue.Clear();
  uint32_t rank, merged;
  for (int32_t i = 0; syms[i].next >= 0; i = syms[i].next) {
    const int32_t j = syms[i].next;
    const bool bytes = j == i + 1 && (syms[j].next < 0 ? static_cast<size_t>(j) + 1 == n : syms[j].next == j + 1);
    const int known = bytes ? BytePair(s, static_cast<size_t>(i), &rank, &merged) : -1;
    if (known < 0 ? pair(i, j, &rank, &merged) : known == 1) queue.Push(rank, static_cast<uint32_t>(i));
  }
  MergeQueue::Candidate c;
  while (queue.Pop(&c)) {
    // A bucket's positions are spread over the whole piece: each pop's
    // symbol is a cache miss unless fetched a few pops ahead.
    const uint32_t ahead = queue.Ahead(8);
    if (ahead != MergeQueue::kNil) __builtin_prefetch(&syms[ahead], 1);
    LargeSym& cur = syms[c.pos];
    if (cur.id == kRemoved || cur.next < 0) continue;
    const uint32_t r = static_cast<uint32_t>(cur.next);
    // Stale unless the pair there still has this rank (see MergeQueue).
    if (!pair(c.pos, r, &rank, &merged) || rank != c.rank) continue;
    LargeSym& right = syms[r];
    cur.id = merged;
    cur.next = right.next;
    right.id = kRemoved;
    if (cur.next >= 0) syms[cur.next].prev = static_cast<int32_t>(c.pos);
    if (cur.prev >= 0 && pair(cur.prev, c.pos, &rank, &merged))
      queue.Push(rank, static_cast<uint32_t>(cur.prev));
    if (cur.next >= 0 && pair(c.pos, cur.next, &rank, &merged)) queue.Push(rank, c.pos);
  }
  for (int32_t i = 0; i >= 0; i = syms[i].next) out->push_back(syms[i].id);
  // A thread keeps scratch for pieces up to a few MB, not for its largest one ever.
  if (n > kKeepScratch) scratch.Release();
}

}  // namespace mtok
