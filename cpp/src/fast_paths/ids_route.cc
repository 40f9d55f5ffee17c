#include "fast_paths/ids_route.h"

#include "fast_paths/bpe_word_route.h"
#include "fast_paths/byte_level_route.h"
#include "fast_paths/metaspace_route.h"
#include "fast_paths/wordpiece_route.h"

namespace mtok {

std::unique_ptr<IdsRoute> MakeIdsRoute(const Normalizer* fusable, const PreTokenizer* pre,
                                       const Model& model) {
  if (pre == nullptr) return BpeWordRoute::Make(pre, model);
  if (auto r = ByteLevelRoute::Make(pre, model)) return r;
  std::vector<PreTokenizerStage> stages;
  pre->Describe(&stages);
  if (auto r = WordPieceRoute::Make(fusable, stages, model)) return r;
  if (auto r = MetaspaceRoute::Make(fusable, stages, model)) return r;
  return BpeWordRoute::Make(pre, model);
}

}  // namespace mtok
