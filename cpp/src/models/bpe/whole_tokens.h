// Tokens whose own bytes merge back into themselves: a pre-token equal to
// one of them is that token, with no merge loop (most words of English
// text are tokens). Models with ignore_merges look every pre-token up
// anyway; for the others this table, computed at export (section BWHL),
// says which lookups may be trusted. Optional: without it every pre-token
// is merged.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mtok/status.h"

namespace mtok {

class WholeTokens {
 public:
  WholeTokens() = default;  // empty: no table
  // A table for ids [0, id_count) with no bit set.
  explicit WholeTokens(uint32_t id_count) : id_count_(id_count), words_((size_t{id_count} + 63) / 64) {}

  bool empty() const { return words_.empty(); }
  bool Has(uint32_t id) const { return id / 64 < words_.size() && ((words_[id / 64] >> (id % 64)) & 1); }
  void Set(uint32_t id) { words_[id / 64] |= uint64_t{1} << (id % 64); }
  size_t Count() const;

  // BWHL payload: [u32 id_count][u32 0] then ceil(id_count / 64) u64 words,
  // bit id % 64 of word id / 64 set when token id merges into itself.
  std::string Payload() const;
  // Checks the size against the vocab; the bits themselves are trusted as
  // the pair ranks are (a wrong one changes results, never memory safety).
  static Status Parse(std::string_view payload, uint32_t id_count, WholeTokens* out);

 private:
  uint32_t id_count_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace mtok
