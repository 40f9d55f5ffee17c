// Post-processing: the special tokens added around one or two sequences
// (HF TemplateProcessing; Bert and Roberta processors are written as
// templates by the exporter).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace mtok {

struct Encoding {
  std::vector<uint32_t> ids;
  std::vector<uint32_t> type_ids;
  std::vector<uint8_t> special_mask;
};

struct TemplateItem {
  enum Kind : uint8_t { kSequenceA = 0, kSequenceB = 1, kSpecial = 2 } kind;
  uint32_t type_id = 0;
  std::vector<uint32_t> ids;  // for kSpecial
};

class PostProcessor {
 public:
  PostProcessor() = default;
  PostProcessor(std::vector<TemplateItem> single, std::vector<TemplateItem> pair)
      : single_(std::move(single)), pair_(std::move(pair)), active_(true) {}

  bool active() const { return active_; }
  // Number of special tokens added to a single / pair input.
  size_t AddedTokens(bool pair) const;
  // Builds the final encoding. Without add_special the sequences are only
  // concatenated (B gets type id 1 as in HF).
  void Process(const Encoding& a, const Encoding* b, bool add_special, Encoding* out) const;

 private:
  std::vector<TemplateItem> single_, pair_;
  bool active_ = false;
};

}  // namespace mtok
