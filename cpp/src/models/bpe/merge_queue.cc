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
  // Every bucket was drained by the Pops that emptied the last use; a use
  // abandoned early leaves heads behind, so reset those.
  for (uint32_t r : ranks_) head_[r] = kNil;
  ranks_.clear();
  blocks_.clear();
  drain_.clear();
  drain_at_ = 0;
  drain_rank_ = 0;
  draining_ = false;
  heap_.clear();
}

void MergeQueue::PushHeap(const Candidate& c) {
  heap_.push_back(c);
  std::push_heap(heap_.begin(), heap_.end(), After);
}

void MergeQueue::Push(uint32_t rank, uint32_t pos, uint32_t merged) {
  if (rank >= kMaxBucketRank || (draining_ && rank <= drain_rank_)) {
    PushHeap({rank, pos, merged});
    return;
  }
  if (rank >= head_.size()) head_.resize(size_t(rank) + 1, kNil);
  uint32_t& head = head_[rank];
  if (head == kNil) {
    ranks_.push_back(rank);
    std::push_heap(ranks_.begin(), ranks_.end(), std::greater<uint32_t>());
  }
  if (head == kNil || blocks_[head].count == kBlockItems) {
    blocks_.emplace_back();
    blocks_.back().older = head;
    blocks_.back().count = 0;
    head = static_cast<uint32_t>(blocks_.size() - 1);
  }
  Block& b = blocks_[head];
  b.items[b.count++] = {pos, merged};
}

bool MergeQueue::LoadNextBucket() {
  if (ranks_.empty()) return false;
  std::pop_heap(ranks_.begin(), ranks_.end(), std::greater<uint32_t>());
  const uint32_t rank = ranks_.back();
  ranks_.pop_back();
  drain_.clear();
  drain_at_ = 0;
  for (uint32_t k = head_[rank]; k != kNil; k = blocks_[k].older) {
    const Block& b = blocks_[k];
    for (uint32_t i = b.count; i-- > 0;) drain_.push_back(b.items[i]);
  }
  head_[rank] = kNil;
  // Gathered newest first; pushes arrive in ascending runs.
  std::reverse(drain_.begin(), drain_.end());
  auto by_pos = [](const Item& a, const Item& b) { return a.pos < b.pos; };
  if (!std::is_sorted(drain_.begin(), drain_.end(), by_pos)) {
    std::stable_sort(drain_.begin(), drain_.end(), by_pos);
  }
  drain_rank_ = rank;
  draining_ = true;
  return true;
}

bool MergeQueue::Pop(Candidate* out) {
  if (drain_at_ == drain_.size()) LoadNextBucket();
  const bool bucket = drain_at_ < drain_.size();
  if (!heap_.empty()) {
    const Candidate& top = heap_.front();
    if (!bucket || After(Candidate{drain_rank_, drain_[drain_at_].pos, 0}, top)) {
      *out = top;
      std::pop_heap(heap_.begin(), heap_.end(), After);
      heap_.pop_back();
      return true;
    }
  }
  if (!bucket) return false;
  const Item& it = drain_[drain_at_++];
  *out = {drain_rank_, it.pos, it.merged};
  return true;
}

}  // namespace mtok
