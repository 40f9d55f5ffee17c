// The fast path for byte-level BPE pipelines (GPT-2, Llama-3, Qwen, o200k,
// tiktoken): when the pre-tokenizer is a regex split followed by ByteLevel,
// each regex match is handed as raw bytes to ByteBpe, skipping the general
// path's piece objects and byte-to-character mapping. Same ids.
#pragma once
#include <memory>
#include <string_view>
#include <vector>

#include "fast_paths/ids_route.h"

namespace mtok {

class ByteBpe;
class PieceCache;

class ByteLevelRoute : public IdsRoute {
 public:
  // Null when the pipeline is not of that shape.
  static std::unique_ptr<ByteLevelRoute> Make(const PipelineShape& shape, const Model& model);

  void Encode(std::string_view segment, bool at_input_start, std::vector<uint32_t>* ids) const override;
  void PrepareThread() const override;
  bool AlwaysSplitsAt(std::string_view s, size_t p) const override;
  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override;
  const char* Name() const override {
    return scanner_ ? "byte-level BPE, hand-written pre-token scanner" : "byte-level BPE, regex pre-tokens";
  }

 private:
  ByteLevelRoute();

  uint64_t serial_;  // keys this route's per-thread pre-token caches
  const Regex* regex_ = nullptr;
  const Scanner* scanner_ = nullptr;  // preferred over regex_ when set
  bool matches_only_ = false;  // Split(invert, Removed): gaps are dropped
  const ByteBpe* bpe_ = nullptr;
};

}  // namespace mtok
