// Byte-pair encoding with HF tokenizers' semantics (merges by rank, ties to
// the leftmost pair), plus tiktoken's rank-of-the-merged-token variant.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>

#include "common/huge_pages.h"
#include "models/bpe/char_fold.h"
#include "models/bpe/pair_filter.h"
#include "models/bpe/pair_index.h"
#include "models/bpe/whole_tokens.h"
#include "models/bpe/raw_tables.h"
#include "models/vocab.h"
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

// The lookup tables of a BPE model, built at load or adopted from the file.
struct BpeTables {
  // A byte-level file's pair and raw-token sections, copied onto 2 MB
  // pages for the tables below to use (null: they point into the file, or
  // own what they built).
  std::unique_ptr<HugePageRegion> hot;
  PairIndex pairs;  // unused in rank_merges mode
  PairFilter pair_filter;  // byte-level models: pairs that cannot merge (may be empty)
  RawTables raw;    // byte-level models: raw bytes of each token (may be empty)
  CharFold fold;    // byte-level models: characters a word may start from as one token (may be empty)
  WholeTokens whole;  // byte-level models: tokens that merge into themselves (may be empty)
};

std::unique_ptr<Model> MakeBpeModel(Vocab vocab, BpeTables tables, BpeOptions options);

class ByteBpe;
// The same model on raw bytes when `model` is a byte-level BPE, else null
// (for the fast path that fits it; the general Model interface has no such hook).
const ByteBpe* ByteBpeOf(const Model& model);

}  // namespace mtok
