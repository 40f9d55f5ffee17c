// A SentencePiece ModelProto as read by the converter's fast path
// (sp_model.cc), before its model section is written: sp_file.cc writes
// that section straight into the file it builds, not into a copy.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/vocab.h"
#include "mtok/convert.h"

namespace mtok::convert {

// A piece as the converter keeps it: its text as an offset into the
// proto. 12 bytes, not 32: a 32k vocab's pieces and sort keys are fresh
// memory, and first-touched pages cost more than the parse.
struct PackedPiece {
  uint32_t at;
  uint16_t size;
  uint8_t type;
  float score;
};
static_assert(sizeof(PackedPiece) <= 12, "packed pieces stay small");

struct SpPieces {
  std::string_view proto;
  std::vector<PackedPiece> pieces;  // in id order
  // Unigram: the ids by piece bytes, the order its records go out in (the
  // trie is built in it, and a piece twice is seen there). BPE: empty, the
  // records go out in id order (nothing needs them sorted, and the sort
  // was a fifth of a first load), and the caller checks for a piece twice.
  std::vector<uint32_t> order;
  uint64_t model_type = 1;  // UNIGRAM; 2: BPE

  // Calls f(id) for each piece in the order of its record.
  template <typename F>
  void ForEachRecord(F f) const {
    if (order.empty()) {
      for (uint32_t id = 0; id < pieces.size(); ++id) f(id);
    } else {
      for (const uint32_t id : order) f(id);
    }
  }
};

// Reads `proto` into `facts` (all but its section) and `out`, every
// piece's text checked (non-empty, UTF-8, at most 65535 bytes).
bool ReadSpModel(std::string_view proto, SpModel* facts, SpPieces* out);

// True when no piece of `p` appears twice (BPE pieces, which are not
// sorted; Unigram pieces were checked in their sort).
bool DistinctPieces(const SpPieces& p);

// Appends the model section of what ReadSpModel read.
void AppendSpSection(const SpPieces& p, const SpModel& facts, std::string* out);

}  // namespace mtok::convert
