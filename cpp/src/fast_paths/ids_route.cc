#include "fast_paths/ids_route.h"

#include "fast_paths/bpe_word_route.h"
#include "fast_paths/byte_level_route.h"
#include "fast_paths/metaspace_route.h"
#include "fast_paths/wordpiece_route.h"
#include "mtok/tokenizer.h"

namespace mtok {

bool IdsRoute::SplitPays(size_t bytes, int threads) const {
  if (threads < 2 || bytes < EncodeOptions::kSplitMinBytesWarm) return false;
  if (bytes >= EncodeOptions::kSplitMinBytes) return true;
  const uint64_t warm = uint64_t{EncodeOptions::kSplitWarmBytesPerThread} * static_cast<unsigned>(threads - 1);
  return pool_bytes_.load(std::memory_order_relaxed) >= warm;
}

void IdsRoute::CountSplit(bool encoded, uint64_t pool_bytes) const {
  if (encoded) splits_.fetch_add(1, std::memory_order_relaxed);
  pool_bytes_.fetch_add(pool_bytes, std::memory_order_relaxed);
}

void IdsRoute::DescribeSplits(std::vector<std::pair<std::string, std::string>>* out) const {
  out->emplace_back("split_encodes", std::to_string(splits_.load(std::memory_order_relaxed)));
  out->emplace_back("split_pool_bytes", std::to_string(pool_bytes_.load(std::memory_order_relaxed)));
}

std::unique_ptr<IdsRoute> MakeIdsRoute(const Normalizer* fusable, const PreTokenizer* pre,
                                       const Model& model) {
  if (pre == nullptr) return BpeWordRoute::Make(pre, model);
  PipelineShape shape;
  shape.fusable = fusable;
  if (fusable) fusable->Describe(&shape.normalizer);
  pre->Describe(&shape.pre_tokenizer);
  if (auto r = ByteLevelRoute::Make(shape, model)) return r;
  if (auto r = WordPieceRoute::Make(shape, model)) return r;
  if (auto r = MetaspaceRoute::Make(shape, model)) return r;
  return BpeWordRoute::Make(pre, model);
}

}  // namespace mtok
