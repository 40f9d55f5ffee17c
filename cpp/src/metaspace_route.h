// The fast path for Metaspace pipelines (SentencePiece-style tokenizer.json
// files: XLM-R, T5, ...): spaces are replaced and words split in one pass
// into reusable per-thread scratch, and each word goes straight to the
// model, through a per-thread cache of recent words. Handles Metaspace
// alone or after WhitespaceSplit.
#pragma once
#include <memory>
#include <string>

#include "ids_route.h"

namespace mtok {

class PieceCache;

class MetaspaceRoute : public IdsRoute {
 public:
  // Null when the pipeline is not of that shape.
  static std::unique_ptr<MetaspaceRoute> Make(const std::vector<PreTokenizerStage>& stages,
                                              const Model& model);
  void Encode(std::string_view segment, bool at_input_start, std::vector<uint32_t>* ids) const override;
  const char* Name() const override { return "Metaspace words, straight to the model"; }

 private:
  MetaspaceRoute();
  void EncodeWord(std::string_view word, bool at_input_start, std::string* buf, PieceCache& cache,
                  std::vector<uint32_t>* ids) const;
  void EncodePiece(std::string_view piece, PieceCache& cache, std::vector<uint32_t>* ids) const;

  uint64_t serial_;  // keys this route's per-thread piece caches
  const Model* model_ = nullptr;
  bool whitespace_split_ = false;  // WhitespaceSplit runs first
  std::string rep_;                // the replacement, UTF-8
  uint8_t scheme_ = 0;             // a PrependScheme
  bool split_ = true;
};

}  // namespace mtok
