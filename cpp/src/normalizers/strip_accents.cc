#include "common/unicode.h"
#include "normalizers/char_map.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// HF StripAccents: drops nonspacing marks (Mn). It does not decompose; HF
// pipelines put NFD in front of it.
class StripAccentsNormalizer : public Normalizer {
 public:
  void Normalize(Piece* p) const override {
    MapCodePoints(p, [](char32_t cp, std::u32string* out) {
      if (unicode::category(cp) != unicode::Category::Mn) out->push_back(cp);
    });
  }
};

}  // namespace

NormalizerPtr MakeStripAccentsNormalizer() { return std::make_unique<StripAccentsNormalizer>(); }

}  // namespace mtok
