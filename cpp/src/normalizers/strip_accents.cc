#include "common/hf_char_classes.h"
#include "normalizers/char_map.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// HF StripAccents: drops combining marks (unicode-normalization's
// is_combining_mark: Mn, Mc and Me as of Unicode 9.0). It does not
// decompose; HF pipelines put NFD in front of it.
class StripAccentsNormalizer : public Normalizer {
 public:
  void Normalize(Piece* p) const override {
    MapCodePoints(p, [](char32_t cp, std::u32string* out) {
      if (!unicode::IsCombiningMark(cp)) out->push_back(cp);
    });
  }
};

}  // namespace

NormalizerPtr MakeStripAccentsNormalizer() { return std::make_unique<StripAccentsNormalizer>(); }

}  // namespace mtok
