// The fast path for BERT-style pipelines: BertPreTokenizer and a WordPiece
// model, after a BertNormalizer that the route runs itself in the same pass
// (or any other normalizer, run by the caller first). One pass over the
// segment writes each word's normalized bytes once; the words go a batch at
// a time to a per-thread word -> ids cache (the piece cache), and a miss
// runs the greedy longest-match over the vocab trie. Same ids as the
// general path; a warm encode allocates nothing.
#pragma once
#include <cstdint>
#include <memory>

#include "fast_paths/bert_code_points.h"
#include "fast_paths/ids_route.h"

namespace mtok {

class WordPiece;

class WordPieceRoute : public IdsRoute {
 public:
  // Null when the pipeline is not of that shape. Runs shape.fusable in the
  // same pass when it is a BertNormalizer (see MakeIdsRoute).
  static std::unique_ptr<WordPieceRoute> Make(const PipelineShape& shape, const Model& model);
  void Encode(std::string_view segment, bool at_input_start, std::vector<uint32_t>* ids) const override;
  bool Normalizes() const override { return normalizer_ != nullptr; }
  void PrepareThread() const override;
  // After a newline: white space in every option set, and nothing (a word,
  // a stretch of marks) carries over a word's end.
  bool AlwaysSplitsAt(std::string_view s, size_t p) const override {
    return p > 0 && p < s.size() && s[p - 1] == '\n' && ascii_kind_[static_cast<uint8_t>('\n')] == kSpace;
  }
  void RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const override;
  const char* Name() const override {
    return normalizer_ ? "BertNormalizer and BertPreTokenizer fused, WordPiece through a word cache"
                       : "BertPreTokenizer words, WordPiece through a word cache";
  }

 private:
  class Words;

  WordPieceRoute(BertOptions opt, const Normalizer* normalizer, const WordPiece* wp);

  // What an ASCII byte does (the BertCodePoints kinds, narrowed).
  enum AsciiKind : uint8_t { kWordByte, kSpace, kAlone, kDropped, kNotAscii };

  uint64_t serial_;  // keys this route's per-thread word caches
  const Normalizer* normalizer_;  // the fused BertNormalizer, or null
  const WordPiece* wp_;
  BertCodePoints cps_;
  uint8_t ascii_kind_[256];
  char ascii_out_[128];  // kWordByte, kAlone: the normalized byte
  bool lowercase_ = false;  // the fused normalizer lowercases
  bool blocks_ = false;     // the table agrees with bert_ascii's block classes
};

}  // namespace mtok
