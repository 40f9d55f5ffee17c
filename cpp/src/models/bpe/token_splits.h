// Every way a token of a byte-level vocab is two tokens joined: with
// tiktoken's rank merges, each such split (left, right) is a merge, ranked
// by the whole token's id. The pair filter and the character fold both
// need them at export. Found once, with no hash lookup: a token's prefix
// tokens come from the vocab in byte order, its suffix tokens from the vocab
// in reversed byte order (a probe per split point of a multi-MB table took
// most of the export's time).
#pragma once
#include <cstdint>
#include <vector>

#include "models/bpe/raw_tables.h"

namespace mtok {

struct TokenSplit {
  uint32_t left, right, token;
  uint32_t at;  // bytes of left: token's bytes are left's then right's
};

struct RankSplits {
  std::vector<TokenSplit> splits;
  // False when two ids share their bytes: the merge loop holds the id
  // raw.Find gives, so which pairs merge is not known from ids alone.
  bool ids_unique = true;
};

// The splits of every token whose bytes raw.Find maps back to it (a repeated
// key names its lowest id), in no particular order.
RankSplits ComputeRankSplits(const RawTables& raw);

}  // namespace mtok
