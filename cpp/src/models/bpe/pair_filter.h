// A Bloom filter over the merge pairs of a byte-level BPE model (section
// PFLT): the pairs of its pair table, or with tiktoken's rank merges the
// pairs of tokens whose bytes join into a token. Most pairs a first-seen
// word looks up do not merge (Chinese text: 9 in 10 of those between two
// character tokens), and without the filter each is a probe of a table of
// several MB that misses the CPU caches. The filter is a few hundred KB
// and answers most of them from L2.
//
// Blocked: a pair's bits all lie in one 64-byte block, so a query reads
// one cache line. Computed at export from the pair table; optional.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/flat_hash.h"
#include "mtok/status.h"

namespace mtok {

class PairIndex;

class PairFilter {
 public:
  PairFilter() = default;
  PairFilter(PairFilter&&) = default;  // blocks_ may point into owned_, whose buffer moves along
  PairFilter& operator=(PairFilter&&) = default;
  PairFilter(const PairFilter&) = delete;
  PairFilter& operator=(const PairFilter&) = delete;

  bool empty() const { return blocks_ == nullptr; }
  size_t bytes() const { return (mask_ + 1) * sizeof(Block); }

  // False: (left, right) is no merge. True: it may be one.
  bool MayMerge(uint32_t left, uint32_t right) const {
    const uint64_t h = Mix64((uint64_t{left} << 32) | right);
    const Block& b = blocks_[(h >> 40) & mask_];
    // kBits positions in the block's 512 bits, 9 bits of the hash each;
    // tested together, without a branch per bit (unrolled: GCC kept a
    // loop here, a counter and a branch per bit).
    uint64_t all = 1;
#pragma GCC unroll 4
    for (int k = 0; k < kBits; ++k) {
      const uint32_t bit = (h >> (9 * k)) & 511;
      all &= b.w[bit / 64] >> (bit % 64);
    }
    return all & 1;
  }

  // An empty filter sized for about `pairs` pairs; Add them.
  static PairFilter ForPairs(size_t pairs);
  void Add(uint32_t left, uint32_t right);
  // The filter of every pair in `pairs`.
  static PairFilter Build(const PairIndex& pairs);
  // PFLT payload: [u32 block_count][u32 0] then block_count blocks of 8 u64
  // (bit p of a block is bit p % 64 of word p / 64).
  std::string Payload() const;
  // Checks the layout; the bits are trusted as the pair ranks are (a wrong
  // one changes results, never memory safety). `payload` must outlive the
  // filter, and be 8-byte aligned.
  static Status Parse(std::string_view payload, PairFilter* out);

 private:
  static constexpr int kBits = 4;  // bits set per pair (at most 40 / 9)
  struct Block {
    uint64_t w[8];
  };

  std::vector<Block> owned_;
  const Block* blocks_ = nullptr;
  uint64_t mask_ = 0;  // block count - 1
};

}  // namespace mtok
