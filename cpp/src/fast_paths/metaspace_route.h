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
  bool CutsBeforeLineBreak() const override { return true; }
  // Before a line break that the fused normalizer makes a space (the
  // start of the next piece), after an ASCII character it leaves as it is
  // and that starts its own grapheme cluster (the byte before it ASCII
  // too): the normalized text is its parts' forms joined, no space
  // collapse or piece goes across the cut, and the part after it starts
  // with the replacement, so it prepends nothing.
  bool AlwaysSplitsAt(std::string_view s, size_t p) const override {
    if (!cuts_ || p < 2 || p >= s.size() || s[p] != '\n') return false;
    const auto b1 = static_cast<uint8_t>(s[p - 1]), b2 = static_cast<uint8_t>(s[p - 2]);
    return b1 < 0x80 && b2 < 0x80 && kept_before_cut_[b1];
  }
  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override;
  const char* Name() const override {
    return normalizes_ ? "Precompiled and Metaspace fused, straight to the model"
                       : "Metaspace words, straight to the model";
  }

 private:
  class Words;

  MetaspaceRoute();
  void EncodePiece(std::string_view piece, PieceCache& cache, std::vector<uint32_t>* ids) const;
  // Sets cuts_ and kept_before_cut_ from the fused normalizer.
  void FindCuts();

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
  bool cuts_ = false;    // AlwaysSplitsAt may say yes: fused, "\n" normalized to " ", pieces split
  bool kept_before_cut_[128] = {};  // printable ASCII the normalizer leaves as it is
};

}  // namespace mtok
