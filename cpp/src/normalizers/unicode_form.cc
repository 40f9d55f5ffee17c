#include <algorithm>

#include "normalizers/char_map.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

// NFC / NFD / NFKC / NFKD over the whole piece (composition and canonical
// reordering across code points, not a per-code-point table).
class UnicodeFormNormalizer : public Normalizer {
 public:
  explicit UnicodeFormNormalizer(unicode::NormForm form) : form_(form) {}
  void Normalize(Piece* p) const override {
    // ASCII is invariant under every form.
    bool ascii = true;
    for (unsigned char c : p->text) {
      if (c >= 0x80) { ascii = false; break; }
    }
    if (ascii) return;
    DecodedText in = DecodePiece(*p);
    std::u32string out;
    std::vector<uint32_t> src;
    unicode::normalize(form_, in.cps, &out, &src);
    if (out == in.cps) return;
    // HF aligns reordered marks by position, not by where each mark came
    // from: undo the reordering permutation in the alignment.
    std::sort(src.begin(), src.end());
    RebuildPiece(p, in, out, src);
  }

 private:
  unicode::NormForm form_;
};

}  // namespace

NormalizerPtr MakeUnicodeFormNormalizer(unicode::NormForm form) {
  return std::make_unique<UnicodeFormNormalizer>(form);
}

}  // namespace mtok
