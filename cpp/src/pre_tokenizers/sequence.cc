#include "pre_tokenizers/pre_tokenizers.h"

namespace mtok {
namespace {

class SequencePreTokenizer : public PreTokenizer {
 public:
  explicit SequencePreTokenizer(std::vector<PreTokenizerPtr> parts) : parts_(std::move(parts)) {}
  void Apply(std::vector<Piece>* pieces) const override {
    for (const auto& p : parts_) p->Apply(pieces);
  }
  void Describe(std::vector<PreTokenizerStage>* out) const override {
    for (const auto& p : parts_) p->Describe(out);
  }

 private:
  std::vector<PreTokenizerPtr> parts_;
};

}  // namespace

PreTokenizerPtr MakeSequencePreTokenizer(std::vector<PreTokenizerPtr> parts) {
  return std::make_unique<SequencePreTokenizer>(std::move(parts));
}

}  // namespace mtok
