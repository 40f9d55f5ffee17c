// The fast path for Metaspace pipelines (SentencePiece-style tokenizer.json
// files: XLM-R, T5, ...). One pass over the segment does the normalizer
// when it is HF's Precompiled (optionally followed by XLM-R's " {2,}" -> " "
// collapse), WhitespaceSplit when present, and Metaspace; each Metaspace
// piece goes straight to the model through a per-thread cache of recent
// pieces. All buffers are per thread: a warm encode allocates nothing.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "fast_paths/ids_route.h"

namespace mtok {

class PieceCache;
class PrecompiledNormalizer;

class MetaspaceRoute : public IdsRoute {
 public:
  // Null when the pipeline is not of that shape. Runs shape.fusable in the
  // same pass when it has a fusable shape (see MakeIdsRoute).
  static std::unique_ptr<MetaspaceRoute> Make(const PipelineShape& shape, const Model& model);
  void Encode(std::string_view segment, bool at_input_start, std::vector<uint32_t>* ids) const override;
  bool Normalizes() const override { return normalizes_; }
  void PrepareThread() const override;
  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override;
  const char* Name() const override {
    return normalizes_ ? "Precompiled and Metaspace fused, straight to the model"
                       : "Metaspace words, straight to the model";
  }

 private:
  class Words;

  MetaspaceRoute();
  void EncodePiece(std::string_view piece, PieceCache& cache, std::vector<uint32_t>* ids) const;

  uint64_t serial_;  // keys this route's per-thread piece caches
  const Model* model_ = nullptr;
  bool normalizes_ = false;                      // Encode takes raw text...
  const PrecompiledNormalizer* precompiled_ = nullptr;  // ...and runs this on it
  bool collapse_spaces_ = false;                 // then " {2,}" -> " "
  bool whitespace_split_ = false;                // WhitespaceSplit runs first
  std::string rep_;                              // the replacement, UTF-8
  char32_t rep_cp_ = 0;
  PrependScheme scheme_{};
  bool split_ = true;
  bool stop_[256] = {};  // bytes that may start a space, white space or the replacement
};

}  // namespace mtok
