// The candidate merges of one long pre-token, popped lowest rank first and
// leftmost among equal ranks: the order of HF's heap (and tiktoken's scan),
// in time linear in the number of pushes.
//
// Candidates go into one bucket per rank. A merge pushes only candidates
// next to its own position, and a bucket is drained left to right, so each
// bucket fills as a few ascending runs; draining it sorts it (usually a
// no-op) and then hands out its positions in order. A rank is bucketed once
// the queue has moved below it; a candidate at or below the rank being
// drained (merges whose result pairs into a lower rank, which HF files can
// hold) or with a rank too large for the bucket array goes to a small
// exact heap, and Pop takes the smaller of the two heads. So the pop order
// is exactly (rank, position) order whatever the merge table.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mtok {

class MergeQueue {
 public:
  struct Candidate {
    uint32_t rank, pos, merged;
  };

  // Empties the queue (keeps its memory).
  void Clear();
  void Push(uint32_t rank, uint32_t pos, uint32_t merged);
  // The smallest (rank, pos) candidate; false when the queue is empty.
  bool Pop(Candidate* out);

 private:
  static constexpr uint32_t kNil = 0xFFFFFFFFu;
  // Ranks from here go to the heap: bounds the bucket array a hostile merge
  // table can make us allocate (real vocabularies are far below).
  static constexpr uint32_t kMaxBucketRank = 1u << 21;

  struct Item {
    uint32_t pos, merged;
  };
  // A bucket is a chain of these, newest first: one cache line holds seven
  // candidates, so draining a bucket does not miss the cache per candidate.
  static constexpr uint32_t kBlockItems = 7;
  struct alignas(64) Block {
    uint32_t older;  // the block filled before this one, or kNil
    uint32_t count;
    Item items[kBlockItems];
  };

  bool LoadNextBucket();
  void PushHeap(const Candidate& c);

  std::vector<uint32_t> head_;     // by rank: newest block, kNil when empty
  std::vector<Block> blocks_;      // all bucketed pushes of this pre-token
  std::vector<uint32_t> ranks_;    // min-heap of the non-empty buckets' ranks
  std::vector<Item> drain_;        // the bucket being drained, by position
  size_t drain_at_ = 0;
  uint32_t drain_rank_ = 0;        // rank of drain_; buckets hold larger ranks
  bool draining_ = false;
  std::vector<Candidate> heap_;    // min-heap on (rank, pos) of the rest
};

}  // namespace mtok
