#include "normalizers/char_map.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// HF Lowercase: Rust's full lowercase mapping per code point.
class LowercaseNormalizer : public Normalizer {
 public:
  void Normalize(Piece* p) const override {
    MapCodePoints(p, [](char32_t cp, std::u32string* out) {
      if (cp < 0x80) {
        out->push_back(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
      } else {
        unicode::to_lower(cp, out);
      }
    });
  }
};

}  // namespace

NormalizerPtr MakeLowercaseNormalizer() { return std::make_unique<LowercaseNormalizer>(); }

}  // namespace mtok
