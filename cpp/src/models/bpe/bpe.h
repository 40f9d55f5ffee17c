// Byte-pair encoding with HF tokenizers' semantics (merges by rank, ties to
// the leftmost pair), plus tiktoken's rank-of-the-merged-token variant.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <unordered_map>

#include "common/huge_pages.h"
#include "models/bpe/char_fold.h"
#include "models/bpe/pair_filter.h"
#include "models/bpe/token_spans.h"
#include "models/bpe/pair_index.h"
#include "models/bpe/whole_tokens.h"
#include "models/bpe/raw_tables.h"
#include "models/vocab.h"
#include "mtok/status.h"
#include "pipeline.h"

namespace mtok {

struct BpeOptions {
  bool byte_fallback = false;
  bool ignore_merges = false;
  bool fuse_unk = false;
  bool has_unk = false;
  uint32_t unk_id = 0;
  // tiktoken: a pair may merge when the concatenation is in the vocab; its
  // rank is the merged token's id. No merges table is stored.
  bool rank_merges = false;
  std::string continuing_subword_prefix;
  std::string end_of_word_suffix;
};

struct MergeEntry {
  uint32_t left, right, rank, merged;
};

// Where a BPE model's merges never reach across: before the SentencePiece
// word mark U+2581 when the character before it is a token of its own that
// no vocab token holds right before the mark. A merge joins two symbols into
// a vocab token, so none can cross such a point, and encoding the parts of
// a piece apart gives the ids of the whole (merges are local: each part's
// lowest-rank, leftmost-first order is the same alone).
class BpeBoundaries {
 public:
  static constexpr std::string_view kMark = "\xE2\x96\x81";  // U+2581
  // False when the model allows no such split (subword prefixes or
  // suffixes, ignore_merges, fused unknowns, no mark token).
  bool any() const { return vocab_ != nullptr; }
  // True when the piece may be split at byte p: s.substr(p) starts with the
  // mark, and the character before p is a token no vocab token holds before it.
  bool SplitsAt(std::string_view s, size_t p) const;

  // The scan's tables as a BBND payload (docs/format.md), and back: a file
  // that carries them spares the first encode the scan.
  std::string Payload() const;
  static Status Parse(std::string_view payload, BpeBoundaries* out);
  bool has_tables() const { return !own_.empty(); }

 private:
  friend BpeBoundaries BpeBoundariesOf(const Model& model);
  // Two bits per BMP code point, filled by the vocab scan so SplitsAt
  // probes no hash on the hot path: is a token of its own, and some token
  // holds it right before the mark (glue). Astral characters ask glue_
  // and the vocab.
  static constexpr uint32_t kTableLimit = 0x10000;
  bool Own(char32_t c) const { return (own_[c >> 6] >> (c & 63)) & 1; }
  bool Glued(char32_t c) const { return (glued_[c >> 6] >> (c & 63)) & 1; }

  const Vocab* vocab_ = nullptr;
  std::vector<char32_t> glue_;  // sorted: astral characters some token holds right before the mark
  std::vector<uint64_t> own_, glued_;  // kTableLimit bits each
};

// The lookup tables of a BPE model, built at load or adopted from the file.
struct BpeTables {
  // A byte-level file's pair and raw-token sections, copied onto 2 MB
  // pages for the tables below to use (null: they point into the file, or
  // own what they built).
  std::unique_ptr<HugePageRegion> hot;
  // Those sections are read in place, on the file's pages: no copy on
  // 2 MB pages could be made.
  bool in_place = false;
  PairIndex pairs;  // unused in rank_merges mode
  PairFilter pair_filter;  // byte-level models: pairs that cannot merge (may be empty)
  RawTables raw;    // byte-level models: raw bytes of each token (may be empty)
  CharFold fold;    // byte-level models: characters a word may start from as one token (may be empty)
  WholeTokens whole;  // byte-level models: tokens that merge into themselves (may be empty)
  TokenSpans spans;   // byte-level models: the file's cut table (BSPN), or empty: built at the first cut
  std::string_view short_tokens;  // byte-level models: the file's BSHT payload (checked), or empty: built at the first encode
  BpeBoundaries boundaries;  // the file's word boundaries (BBND, never a scan's), or empty: scanned when first asked
};

std::unique_ptr<Model> MakeBpeModel(Vocab vocab, BpeTables tables, BpeOptions options);

// The file's tables (BBND), or else a scan of the whole vocab: call once,
// off the load path. No splits when `model` is not a BPE model or
// BpeMaySplit is false.
BpeBoundaries BpeBoundariesOf(const Model& model);
// Whether BpeBoundariesOf can find any split, without the scan.
bool BpeMaySplit(const Model& model);

class ByteBpe;
// The same model on raw bytes when `model` is a byte-level BPE, else null
// (for the fast path that fits it; the general Model interface has no such hook).
const ByteBpe* ByteBpeOf(const Model& model);

}  // namespace mtok
