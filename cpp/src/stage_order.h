// The order of the stages, written once (HF's): added tokens on the raw
// text, the normalizer on each run between them, added tokens on the
// normalized text, then the pre-tokenizer and the model. Both encode paths
// run through it (tokenizer.cc): the general one over Piece objects, which
// tracks offsets and word ids, and the ids routes (fast_paths/) over byte
// ranges of the text.
#pragma once

namespace mtok {

// Each step of `path` maps its list of segments to the next.
template <typename Path>
void RunStages(Path& path) {
  path.SplitAdded(/*normalized=*/false);
  path.Normalize();
  path.SplitAdded(/*normalized=*/true);
  path.Tokenize();  // the pre-tokenizer and the model (fused on a route)
}

}  // namespace mtok
