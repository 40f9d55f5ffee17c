// A fast path for ids-only encoding: pre-tokenization and the model fused
// for one pipeline shape, skipping the general path's piece objects. Each
// route gives exactly the general path's ids.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "pipeline.h"

namespace mtok {

class IdsRoute {
 public:
  virtual ~IdsRoute() = default;
  // Appends the ids of one normalized segment (text between added tokens);
  // `at_input_start`: the segment starts at offset 0 of the input.
  virtual void Encode(std::string_view segment, bool at_input_start, std::vector<uint32_t>* ids) const = 0;
  // True when Encode takes the segment before normalization and runs the
  // pipeline's normalizer itself (fused); otherwise it takes it normalized.
  virtual bool Normalizes() const { return false; }
  virtual const char* Name() const = 0;
  // Makes the calling thread's caches for this route (and clears their
  // memory) ahead of its first Encode. Optional: Encode makes them too.
  // A piece cache is backed when made (PieceCache::AllocateTables).
  virtual void PrepareThread() const {}
  // Where a long segment may be cut at a line break: right after it
  // (false), or right before it (true: Metaspace, where the break becomes
  // the space that starts the next piece).
  virtual bool CutsBeforeLineBreak() const { return false; }
  // True when the pre-tokenizer always puts a boundary at byte p of s
  // (0 < p < s.size(), s[p - 1] == '\n', or s[p] == '\n' when
  // CutsBeforeLineBreak), whatever text comes before or after: encoding
  // s[0, p) and s[p, end) apart gives the ids of s.
  virtual bool AlwaysSplitsAt(std::string_view /*s*/, size_t /*p*/) const { return false; }
  // AlwaysSplitsAt reads no byte of s more than this far from p.
  static constexpr size_t kCutContext = 8;
  // A segment of `bytes` is worth cutting for `threads` threads (> 1):
  // EncodeOptions::kSplitMinBytes and more, or kSplitMinBytesWarm and more
  // once the pool's threads have encoded this route's split parts, about
  // kSplitWarmBytesPerThread each (CountSplit counts them).
  bool SplitPays(size_t bytes, int threads) const;
  // Records a split encode (`encoded`: its ids were kept) in which pool
  // threads, not the caller, encoded `pool_bytes` of the parts.
  void CountSplit(bool encoded, uint64_t pool_bytes) const;
  // (name, value) facts for debug_info(): split_encodes, split_pool_bytes.
  void DescribeSplits(std::vector<std::pair<std::string, std::string>>* out) const;
  // (name, value) facts for debug_info(): the calling thread's caches.
  virtual void RuntimeInfo(std::vector<std::pair<std::string, std::string>>*) const {}

 private:
  mutable std::atomic<uint64_t> splits_{0}, pool_bytes_{0};
};

// What the routes match a pipeline by: its stages' shapes, in order.
struct PipelineShape {
  // The normalizer a route may run itself (see MakeIdsRoute), or null; its
  // stages' shapes (empty when null).
  const Normalizer* fusable = nullptr;
  std::vector<NormalizerStage> normalizer;
  std::vector<PreTokenizerStage> pre_tokenizer;
};

// The route for this pipeline, or null for the general path. `fusable`:
// the pipeline's normalizer when a route may run it itself, else null.
std::unique_ptr<IdsRoute> MakeIdsRoute(const Normalizer* fusable, const PreTokenizer* pre,
                                       const Model& model);

}  // namespace mtok
