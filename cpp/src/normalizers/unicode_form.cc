#include <algorithm>
#include <cstring>
#include <memory>

#include "common/unicode_norm.h"
#include "common/utf8.h"
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
    if (Unchanged(p->text)) return;
    if (p->align.empty()) {
      // No alignment to keep (the ids path): no source map to build and sort.
      std::u32string in, out;
      in.reserve(p->text.size());
      for (size_t i = 0; i < p->text.size();) {
        int len;
        in.push_back(utf8::decode(p->text, i, &len));
        i += len;
      }
      unicode::normalize(form_, in, &out, nullptr);
      if (out == in) return;
      std::string text;
      text.reserve(p->text.size() + 8);
      for (char32_t cp : out) utf8::append(text, cp);
      p->text.swap(text);
      return;
    }
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
  bool LeavesAlone(std::string_view text) const override { return Unchanged(text); }

 private:
  // True when the form cannot change `text`: ASCII is invariant under every
  // form, and NFC leaves alone any text whose code points all have
  // combining class 0 and NFC_Quick_Check Yes (the normalizer copies runs
  // of them as they are).
  bool Unchanged(std::string_view text) const {
    size_t i = 0;
    for (uint64_t w; i + 8 <= text.size(); i += 8) {  // ASCII, a word at a time
      std::memcpy(&w, text.data() + i, 8);
      if (w & 0x8080808080808080ULL) break;
    }
    while (i < text.size() && static_cast<unsigned char>(text[i]) < 0x80) ++i;
    if (i == text.size()) return true;
    if (form_ != unicode::NormForm::NFC) return false;
    for (; i < text.size();) {
      const auto b = static_cast<unsigned char>(text[i]);
      if (b < 0x80) {
        ++i;
        continue;
      }
      // U+0080..U+02FF (two bytes, lead below 0xCC) are all safe: skipped
      // without decoding.
      if (b >= 0xC2 && b < 0xCC && i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) {
        i += 2;
        continue;
      }
      int len;
      const char32_t cp = utf8::decode(text, i, &len);
      i += len;
      if (!unicode::is_nfc_safe(cp)) return false;
    }
    return true;
  }

  unicode::NormForm form_;
};

}  // namespace

NormalizerPtr MakeUnicodeFormNormalizer(unicode::NormForm form) {
  return std::make_unique<UnicodeFormNormalizer>(form);
}

}  // namespace mtok
