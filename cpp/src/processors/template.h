// Post-processing: the special tokens added around one or two sequences
// (HF TemplateProcessing; Bert and Roberta processors are written as
// templates by the exporter), and the offset trimming of HF's ByteLevel and
// Roberta processors.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "mtok/encoding.h"

namespace mtok {

struct TemplateItem {
  enum Kind : uint8_t { kSequenceA = 0, kSequenceB = 1, kSpecial = 2 } kind;
  uint32_t type_id = 0;
  std::vector<uint32_t> ids;          // for kSpecial
  std::vector<std::string> tokens;    // their token strings (ResolveTokens)
};

class PostProcessor {
 public:
  PostProcessor() = default;
  PostProcessor(std::vector<TemplateItem> single, std::vector<TemplateItem> pair)
      : single_(std::move(single)), pair_(std::move(pair)), active_(true) {}

  bool active() const { return active_; }
  // Number of special tokens added to a single / pair input.
  size_t AddedTokens(bool pair) const;
  // Turns on HF's trim_offsets (ByteLevel / Roberta processors).
  void SetTrimOffsets(bool add_prefix_space) {
    trim_offsets_ = true;
    trim_add_prefix_space_ = add_prefix_space;
  }
  // HF's Bert and Roberta processors (not TemplateProcessing): when special
  // tokens are added, overflowing pieces take the template's type ids too.
  void SetOverflowTypeIds() { overflow_type_ids_ = true; }
  // Fills the token strings of the template's special tokens.
  template <typename TokenOf>
  void ResolveTokens(TokenOf token_of) {
    for (auto* items : {&single_, &pair_}) {
      for (TemplateItem& it : *items) {
        it.tokens.clear();
        for (uint32_t id : it.ids) it.tokens.push_back(token_of(id));
      }
    }
  }
  // Builds the final encoding from one or two sequence encodings, as HF's
  // post-processors do: sequences get the template's type ids, special
  // tokens are added when add_special is set, overflowing pieces get the
  // same treatment.
  void Process(const Encoding& a, const Encoding* b, bool add_special, Encoding* out) const;
  // The same for the ids of one sequence only, in place.
  void ProcessIds(std::vector<uint32_t>* ids, bool add_special) const;

 private:
  std::vector<TemplateItem> single_, pair_;
  bool active_ = false;
  bool overflow_type_ids_ = false;
  bool trim_offsets_ = false, trim_add_prefix_space_ = false;
};

// HF byte_level::process_offsets: offsets leave out the leading and trailing
// spaces of each token (in e and its overflowing pieces).
void TrimOffsets(Encoding* e, bool add_prefix_space);

}  // namespace mtok
