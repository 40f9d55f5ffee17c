#include "common/unicode.h"
#include "common/utf8.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// HF Strip: trims Unicode White_Space from either end.
class StripNormalizer : public Normalizer {
 public:
  StripNormalizer(bool left, bool right) : left_(left), right_(right) {}
  void Normalize(Piece* p) const override {
    const std::string& s = p->text;
    size_t b = 0, e = s.size();
    if (left_) {
      while (b < e) {
        int len;
        char32_t cp = utf8::decode(s, b, &len);
        if (!unicode::is_white_space(cp)) break;
        b += len;
      }
    }
    if (right_) {
      while (e > b) {
        size_t k = e - 1;
        while (k > b && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) --k;
        int len;
        char32_t cp = utf8::decode(s, k, &len);
        if (!unicode::is_white_space(cp)) break;
        e = k;
      }
    }
    if (b == 0 && e == s.size()) return;
    *p = [&] {
      Piece q = SubPiece(*p, b, e);
      q.added_id = p->added_id;
      return q;
    }();
  }

 private:
  bool left_, right_;
};

}  // namespace

NormalizerPtr MakeStripNormalizer(bool left, bool right) {
  return std::make_unique<StripNormalizer>(left, right);
}

}  // namespace mtok
