// The candidate merges of one long pre-token, popped lowest rank first and
// leftmost among equal ranks: the order of HF's heap (and tiktoken's scan),
// in time linear in the number of pushes.
//
// Candidates go into one bucket per rank. A merge pushes only candidates
// next to its own position, and a bucket is drained left to right, so each
// bucket fills as a few ascending runs; draining it sorts it (usually a
// no-op) and then hands out its positions in order. Once the queue drains
// a rank, every later candidate of that rank or below (merges whose result
// pairs into a lower rank, which HF files can hold), and any rank too large
// for the bucket array, goes to a small exact heap instead; Pop takes the
// smaller of the two heads. So the pop order is exactly (rank, position)
// order whatever the merge table.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mtok {

class MergeQueue {
 public:
  // The merged id is not kept: a candidate is the pair at `pos` as it was
  // when pushed, and the caller checks that the pair there still has this
  // rank (a pair only changes by growing, and a rank names one pair).
  struct Candidate {
    uint32_t rank, pos;
  };
  static constexpr uint32_t kNil = 0xFFFFFFFFu;

  // Empties the queue (keeps its memory).
  void Clear();
  // Empties the queue and frees its memory.
  void Release();

  void Push(uint32_t rank, uint32_t pos) {
    if (rank >= bucket_floor_ && rank < buckets_.size()) {
      Bucket& b = buckets_[rank];
      if (b.last != kNil && blocks_[b.last].count < kBlockItems) {
        Block& k = blocks_[b.last];
        b.unsorted |= k.pos[k.count - 1] > pos;
        k.pos[k.count++] = pos;
        return;
      }
    }
    PushSlow(rank, pos);
  }

  // A position Pop will hand out soon, for a caller that prefetches what it
  // will read then: the k-th after the next one in the bucket being drained
  // (candidates from the heap may come between), else kNil.
  uint32_t Ahead(uint32_t k) const {
    if (drain_block_ == kNil) return kNil;
    const Block& b = blocks_[drain_block_];
    return drain_at_ + k < b.count ? b.pos[drain_at_ + k] : kNil;
  }

  // The smallest (rank, pos) candidate; false when the queue is empty.
  bool Pop(Candidate* out) {
    if (heap_.empty() && drain_block_ != kNil) {
      const Block& b = blocks_[drain_block_];
      if (drain_at_ < b.count) {
        *out = {drain_rank_, b.pos[drain_at_++]};
        return true;
      }
    }
    return PopSlow(out);
  }

 private:
  // Ranks from here go to the heap: bounds the bucket array a hostile merge
  // table can make us allocate (real vocabularies are far below).
  static constexpr uint32_t kMaxBucketRank = 1u << 21;

  // A bucket is a chain of these, oldest first: one cache line holds 14
  // positions, so pushing and draining stream through memory.
  static constexpr uint32_t kBlockItems = 14;
  struct alignas(64) Block {
    uint32_t next;  // the block filled after this one, or kNil
    uint32_t count;
    uint32_t pos[kBlockItems];
  };
  struct Bucket {
    uint32_t first = kNil, last = kNil;
    uint32_t unsorted = 0;  // a push came left of the one before it
  };

  void PushSlow(uint32_t rank, uint32_t pos);
  bool PopSlow(Candidate* out);
  bool LoadNextBucket();
  uint32_t NewBlock();

  std::vector<Bucket> buckets_;    // by rank
  std::vector<Block> blocks_;      // bucket chains, and a free list of drained blocks
  uint32_t free_ = kNil;
  uint32_t bucket_floor_ = 0;      // ranks below go to the heap (already drained)
  std::vector<uint32_t> ranks_;    // min-heap of the non-empty buckets' ranks
  uint32_t drain_block_ = kNil;    // the bucket being drained: its block,
  uint32_t drain_at_ = 0;          // the next position in it,
  uint32_t drain_rank_ = 0;        // and its rank
  std::vector<uint32_t> sort_;     // a bucket whose pushes came out of order
  std::vector<Candidate> heap_;    // min-heap on (rank, pos) of the rest
};

}  // namespace mtok
