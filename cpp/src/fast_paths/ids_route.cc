#include "fast_paths/ids_route.h"

#include "fast_paths/bpe_word_route.h"
#include "fast_paths/byte_level_route.h"
#include "fast_paths/metaspace_route.h"
#include "fast_paths/wordpiece_route.h"

namespace mtok {

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
