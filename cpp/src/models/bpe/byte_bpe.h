// Byte-level BPE on raw bytes. The ByteLevel alphabet (GPT-2's byte ->
// printable character map) is undone once when the tokenizer loads, so an
// encode hashes byte ranges of the input and never builds token strings.
// Same results as BpeModel on the byte-level mapped text.
#pragma once
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "common/huge_pages.h"
#include "models/bpe/bpe.h"
#include "models/bpe/short_tokens.h"
#include "models/bpe/token_spans.h"
#include "models/bpe/token_splits.h"
#include "models/bpe/whole_tokens.h"

namespace mtok {

class PairMemo;

class ByteBpe {
 public:
  // Null when the model cannot run on raw bytes (byte fallback, subword
  // prefix/suffix, unknown token handling, or a byte missing from the vocab).
  // `tables` must outlive the result; its raw tables are built here when
  // the file did not carry them.
  static std::unique_ptr<ByteBpe> Build(const Vocab& vocab, BpeTables* tables,
                                        const BpeOptions& opt);

  // The calling thread's pair memo for this model. A caller that encodes
  // many pieces on one thread takes it once and hands it to the calls
  // below: a per-thread lookup per piece cost a percent of a first-seen
  // window's instructions (in a shared library a call into the loader,
  // then the search of the thread's owners).
  PairMemo& Memo() const;
  // Appends the ids of one pre-token (raw bytes).
  void Encode(std::string_view piece, std::vector<uint32_t>* out, PairMemo& memo) const;

  // A pre-token may also be encoded in parts (token_spans.h), each cached
  // on its own. Pieces shorter than this are merged whole: few have a cut.
  static constexpr size_t kMinCutBytes = 16;
  // Appends the piece's id and returns true when the piece is one byte or,
  // by the model's rules, a token as it stands (what Encode does before
  // merging); else false.
  bool EncodeAsToken(std::string_view piece, std::vector<uint32_t>* out) const;
  // The first point after `from` where the piece may be cut, or its size
  // (only before a character of 3 or 4 bytes, see token_spans.h); the
  // first call builds the span table.
  size_t NextCut(std::string_view piece, size_t from) const;
  // Appends the ids of a part of a pre-token: its merges alone (a part is
  // taken as one token only when that token merges into itself).
  void EncodePart(std::string_view part, std::vector<uint32_t>* out, PairMemo& memo) const;
  // The one id EncodePart gives a part that is a single character folding
  // on its own (char_fold.h: its bytes alone merge into that token), read
  // from the fold tables without the merge loop; kNoToken for any other
  // part, which EncodePart then encodes.
  static constexpr uint32_t kNoToken = CharFold::kNone;
  uint32_t CharToken(std::string_view part) const {
    if (fold_ == nullptr || part.size() < 2 || part.size() > 3) return kNoToken;
    size_t len = 0;  // Find answers kNone for any part that is not one character
    const uint32_t id = fold_->Find(part, 0, &len);
    return id != CharFold::kNone && len == part.size() ? id : kNoToken;
  }
  // The merge loop alone, for a pre-token of 2 bytes or more (what Encode
  // runs once EncodeAsToken has said no).
  void Merge(std::string_view s, std::vector<uint32_t>* out, PairMemo& memo) const;
  // The short-token table EncodeAsToken reads for a piece of 2 to
  // ShortTokens::kMaxBytes bytes, once it is ready; null when it reads
  // none. A caller may prefetch the slots of pieces it is about to encode.
  const ShortTokens* ShortTokensAsked() const {
    return ignore_merges_ || whole_ != nullptr ? shorts_ready_.load(std::memory_order_acquire) : nullptr;
  }
  // What debug_info() says of the byte-pair table (BytePair).
  std::string BytePairsInfo() const;
  // What debug_info() says of the short-token table (FindToken).
  std::string ShortTokensInfo() const;
  // Makes the calling thread's pair memo ahead of its first merge.
  void PrepareThread() const;

  // With rank merges, the splits of the tokens that the two below read
  // (token_splits.h); empty otherwise. For export.
  RankSplits ComputeRankSplits() const;
  // The characters that fold for this model (char_fold.h); for export.
  // `splits`: ComputeRankSplits(); `filter`: ComputePairFilter()'s, or null.
  CharFold ComputeCharFold(const RankSplits& splits, const PairFilter* filter) const;
  // The pairs that may merge (pair_filter.h), for export; empty when they
  // cannot be known.
  PairFilter ComputePairFilter(const RankSplits& splits) const;
  // The tokens that merge into themselves (whole_tokens.h); for export, and
  // only worth storing without ignore_merges.
  WholeTokens ComputeWholeTokens() const;
  // The cut table NextCut reads (token_spans.h) as a BSPN payload; for export.
  std::string TokenSpansPayload() const { return Spans().Payload(); }
  // The short-token table (short_tokens.h) as a BSHT payload, built here
  // when it is not yet; empty when there is no memory for it. For export.
  std::string ShortTokensPayload() const;

 private:
  struct Part {
    uint32_t start;  // byte offset of the symbol
    uint32_t id;
    uint32_t merged;  // id of its merge with the next symbol
    uint8_t prev, next;  // live neighbours in MergeSmall (parts[] never moves)
  };

  // The symbol a word's merge loop starts with at s[i]: the token of a
  // folding character, else the byte's; its length in *len.
  uint32_t FirstSymbol(std::string_view s, size_t i, size_t* len) const {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0xC2 && fold_ != nullptr) {
      const uint32_t id = fold_->Find(s, i, len);
      if (id != CharFold::kNone) return id;
    }
    *len = 1;
    return byte_id_[c];
  }

  // The merge of the two raw bytes s[at], s[at + 1] (each its byte's
  // token), from the byte-pair table (filled on first sight): 1 with
  // *rank and *merged set, 0 when they do not merge, -1 when the table
  // cannot hold the rank (ask PairRank).
  int BytePair(std::string_view s, size_t at, uint32_t* rank, uint32_t* merged) const {
    const auto b0 = static_cast<unsigned char>(s[at]), b1 = static_cast<unsigned char>(s[at + 1]);
    std::atomic<uint64_t>& e = byte_pairs_.get()[b0 << 8 | b1];
    uint64_t v = e.load(std::memory_order_relaxed);
    if (v == 0) v = FillBytePair(b0, b1, &e);
    const auto hi = static_cast<uint32_t>(v >> 32);
    if (hi == kNoBytePair) return 0;
    if (hi == 0) return -1;
    *rank = hi - 1;
    *merged = static_cast<uint32_t>(v);
    return 1;
  }
  uint64_t FillBytePair(unsigned char b0, unsigned char b1, std::atomic<uint64_t>* e) const;
  // Fills every byte-pair entry not yet known (pairs_ahead_'s work).
  void FillBytePairs() const;

  // The merge of symbol a (from a_start) with the symbol after it (up to b_end).
  bool PairRank(std::string_view s, uint32_t a_start, uint32_t a_id, uint32_t b_id,
                uint32_t b_end, uint32_t* rank, uint32_t* merged) const;
  // Merges parts[0, n) (n < merge_key::kPositions, linked in order, parts[n].start the
  // piece's end) in place; returns false when a rank is
  // too large for a merge key (the parts are then of no use, and
  // MergeLarge does the word from its bytes). key[i] is part i's merge key
  // (merge_key.h), filled here: it holds max(RoundUp4(n), kFixedScan) values.
  bool MergeSmall(std::string_view s, Part* parts, uint32_t* key, size_t n, PairMemo& memo) const;
  // Appends the token of a piece of one byte, or of a piece that is a
  // token merging into itself, or (any_token) of any piece that is a token.
  bool AsIs(std::string_view s, bool any_token, std::vector<uint32_t>* out) const;
  void MergeLarge(std::string_view s, std::vector<uint32_t>* out) const;

  uint32_t byte_id_[256];
  const RawTables* raw_ = nullptr;     // raw token bytes <-> id
  const PairIndex* pairs_ = nullptr;   // unused in rank mode
  const PairFilter* filter_ = nullptr; // null: every pair is looked up
  const CharFold* fold_ = nullptr;     // null: every character starts as bytes
  const WholeTokens* whole_ = nullptr; // null: pre-tokens are merged (unless ignore_merges_)
  // byte_pairs_[b0 << 8 | b1]: 0 until first looked up, then rank + 1 <<
  // 32 | merged id, kNoBytePair << 32 (no merge), or 1 (a rank too large
  // for the entry). The first pairs of every word are
  // mostly two raw bytes: this answers them with one load from a table
  // shared by all threads (any thread may fill an entry; all compute the
  // same), leaving the per-thread memo to pairs of merged tokens.
  static constexpr uint32_t kNoBytePair = 0xFFFFFFFFu;
  struct FreeDeleter {
    void operator()(void* p) const { std::free(p); }
  };
  // calloc'd: its pages are backed only as pairs are first seen.
  std::unique_ptr<std::atomic<uint64_t>, FreeDeleter> byte_pairs_;
  // The token whose raw bytes are s (false for none): pieces of up to
  // ShortTokens::kMaxBytes bytes from shorts_ once it is built, else (and
  // longer ones) from the raw index; the same ids either way.
  bool FindToken(std::string_view s, uint32_t* id) const {
    if (s.size() - 1 < ShortTokens::kMaxBytes) {
      if (const ShortTokens* t = shorts_ready_.load(std::memory_order_acquire)) return t->Find(s, id);
      if (!shorts_started_.load(std::memory_order_relaxed)) StartShorts();
    }
    return raw_->FindPiece(s, id);
  }
  // Builds shorts_ on a thread of its own (about 3 ms for Llama 3, which
  // the first encode would otherwise wait for), here when none can be
  // made. Not called when the file had the table (BSHT).
  void StartShorts() const;
  mutable ShortTokens shorts_;
  mutable std::atomic<const ShortTokens*> shorts_ready_{nullptr};
  mutable std::atomic<bool> shorts_started_{false};
  // The file's (BSPN), else built at the first cut asked for (NextCut):
  // 4.4 M instructions for Llama 3, most of a fresh process's first 16 KB
  // encode. An atomic, not std::call_once, whose every call sets
  // thread-locals.
  const TokenSpans& Spans() const;
  mutable std::atomic<const TokenSpans*> spans_{nullptr};
  mutable std::mutex lazy_mutex_;  // starts shorts_, builds the spans
  mutable std::unique_ptr<TokenSpans> spans_owned_;
  uint64_t serial_ = 0;  // PairMemo owner
  bool rank_merges_ = false;
  bool ignore_merges_ = false;
  // Last: destroyed first, waiting for a build of shorts_ or a fill of
  // byte_pairs_ still running.
  mutable PopulateAhead shorts_ahead_;
  PopulateAhead pairs_ahead_;
};

}  // namespace mtok
