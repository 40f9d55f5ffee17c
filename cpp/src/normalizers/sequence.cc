#include "normalizers/normalizers.h"

namespace mtok {
namespace {

class SequenceNormalizer : public Normalizer {
 public:
  explicit SequenceNormalizer(std::vector<NormalizerPtr> parts) : parts_(std::move(parts)) {}
  void Normalize(Piece* p) const override {
    for (const auto& n : parts_) n->Normalize(p);
  }
  void Describe(std::vector<NormalizerStage>* out) const override {
    for (const auto& n : parts_) n->Describe(out);
  }

 private:
  std::vector<NormalizerPtr> parts_;
};

}  // namespace

NormalizerPtr MakeSequenceNormalizer(std::vector<NormalizerPtr> parts) {
  return std::make_unique<SequenceNormalizer>(std::move(parts));
}

}  // namespace mtok
