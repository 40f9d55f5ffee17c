#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// HF Prepend: adds the string in front of any non-empty text. The added
// bytes align with the first character of the original.
class PrependNormalizer : public Normalizer {
 public:
  explicit PrependNormalizer(std::string prepend) : prepend_(std::move(prepend)) {}
  void Normalize(Piece* p) const override {
    if (p->text.empty()) return;
    p->text.insert(0, prepend_);
    if (!p->align.empty()) {
      Span first = p->align.front();
      p->align.insert(p->align.begin(), prepend_.size(), first);
    }
  }

 private:
  std::string prepend_;
};

}  // namespace

NormalizerPtr MakePrependNormalizer(std::string prepend) {
  return std::make_unique<PrependNormalizer>(std::move(prepend));
}

}  // namespace mtok
