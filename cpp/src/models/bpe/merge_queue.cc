#include "models/bpe/merge_queue.h"

#include <algorithm>
#include <functional>

namespace mtok {

namespace {

// Heap order: true when a comes after b.
bool After(const MergeQueue::Candidate& a, const MergeQueue::Candidate& b) {
  return a.rank != b.rank ? a.rank > b.rank : a.pos > b.pos;
}

}  // namespace

void MergeQueue::Clear() {
  // Pops that emptied the queue drained every bucket; a use abandoned
  // early leaves some behind.
  for (uint32_t r : ranks_) buckets_[r] = Bucket();
  ranks_.clear();
  blocks_.clear();
  free_ = kNil;
  bucket_floor_ = 0;
  drain_block_ = kNil;
  drain_at_ = 0;
  drain_rank_ = 0;
  heap_.clear();
}

void MergeQueue::Release() {
  Clear();
  std::vector<Bucket>().swap(buckets_);
  std::vector<Block>().swap(blocks_);
  std::vector<uint32_t>().swap(ranks_);
  std::vector<uint32_t>().swap(sort_);
  std::vector<Candidate>().swap(heap_);
}

uint32_t MergeQueue::NewBlock() {
  uint32_t k = free_;
  if (k != kNil) {
    free_ = blocks_[k].next;
  } else {
    k = static_cast<uint32_t>(blocks_.size());
    blocks_.emplace_back();
  }
  blocks_[k].next = kNil;
  blocks_[k].count = 0;
  return k;
}

void MergeQueue::PushSlow(uint32_t rank, uint32_t pos) {
  if (rank >= kMaxBucketRank || rank < bucket_floor_) {
    heap_.push_back({rank, pos});
    std::push_heap(heap_.begin(), heap_.end(), After);
    return;
  }
  if (rank >= buckets_.size()) buckets_.resize(size_t(rank) + 1);
  Bucket& b = buckets_[rank];
  const uint32_t k = NewBlock();
  if (b.last == kNil) {
    b.first = k;
    ranks_.push_back(rank);
    std::push_heap(ranks_.begin(), ranks_.end(), std::greater<uint32_t>());
  } else {
    Block& full = blocks_[b.last];
    b.unsorted |= full.pos[full.count - 1] > pos;
    full.next = k;
  }
  b.last = k;
  blocks_[k].pos[0] = pos;
  blocks_[k].count = 1;
}

bool MergeQueue::LoadNextBucket() {
  if (ranks_.empty()) return false;
  std::pop_heap(ranks_.begin(), ranks_.end(), std::greater<uint32_t>());
  const uint32_t rank = ranks_.back();
  ranks_.pop_back();
  Bucket& b = buckets_[rank];
  if (b.unsorted) {
    // Sorted in place: the chain keeps its blocks and their counts.
    sort_.clear();
    for (uint32_t k = b.first; k != kNil; k = blocks_[k].next) {
      sort_.insert(sort_.end(), blocks_[k].pos, blocks_[k].pos + blocks_[k].count);
    }
    std::sort(sort_.begin(), sort_.end());
    const uint32_t* from = sort_.data();
    for (uint32_t k = b.first; k != kNil; k = blocks_[k].next) {
      std::copy(from, from + blocks_[k].count, blocks_[k].pos);
      from += blocks_[k].count;
    }
  }
  drain_block_ = b.first;
  drain_at_ = 0;
  drain_rank_ = rank;
  bucket_floor_ = rank + 1;
  b = Bucket();
  return true;
}

bool MergeQueue::PopSlow(Candidate* out) {
  // Past the end of the current block: free it, go on to the next one, or
  // to the next bucket.
  while (drain_block_ != kNil && drain_at_ == blocks_[drain_block_].count) {
    const uint32_t done = drain_block_;
    drain_block_ = blocks_[done].next;
    drain_at_ = 0;
    blocks_[done].next = free_;
    free_ = done;
  }
  if (drain_block_ == kNil) LoadNextBucket();
  const bool bucket = drain_block_ != kNil;
  if (!heap_.empty()) {
    const Candidate& top = heap_.front();
    if (!bucket || After(Candidate{drain_rank_, blocks_[drain_block_].pos[drain_at_]}, top)) {
      *out = top;
      std::pop_heap(heap_.begin(), heap_.end(), After);
      heap_.pop_back();
      return true;
    }
  }
  if (!bucket) return false;
  *out = {drain_rank_, blocks_[drain_block_].pos[drain_at_++]};
  return true;
}

}  // namespace mtok
