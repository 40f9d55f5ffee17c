// The fast path for BPE pipelines that no shape-specific route takes:
// SentencePiece-style tokenizer.json files (Llama 2, Mistral, Gemma), whose
// normalizer turns spaces into U+2581 and whose pre-tokenizer is absent or
// leaves the text whole. The general path gives the model each pre-token
// whole, a paragraph at a time; this route runs the same pre-tokenizer,
// cuts each pre-token where the model's merges never reach across (before
// a word's mark: BpeBoundaries) and takes each word's ids from a
// per-thread cache (the piece cache), running the model on misses only.
// Same ids as the general path.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>

#include "fast_paths/ids_route.h"
#include "models/bpe/bpe.h"

namespace mtok {

class PieceCache;

class BpeWordRoute : public IdsRoute {
 public:
  // Null unless `model` is a BPE model that is not byte-level (the
  // byte-level route owns those) and the pre-tokenizer, if any, is one
  // this route may run piece by piece.
  static std::unique_ptr<BpeWordRoute> Make(const PreTokenizer* pre, const Model& model);
  void Encode(std::string_view segment, bool at_input_start, std::vector<uint32_t>* ids) const override;
  void PrepareThread() const override;
  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override;
  const char* Name() const override { return "BPE words, split where merges never cross, through a word cache"; }

 private:
  BpeWordRoute(const PreTokenizer* pre, const Model& model);
  void EncodePiece(std::string_view piece, PieceCache& cache, std::vector<uint32_t>* ids) const;
  const BpeBoundaries& Boundaries() const;

  uint64_t serial_;  // keys this route's per-thread piece caches
  const PreTokenizer* pre_;  // null: the segment is one pre-token
  const Model* model_;
  mutable std::once_flag scanned_;  // the vocab scan runs on the first encode, not at load
  mutable BpeBoundaries boundaries_;
};

}  // namespace mtok
