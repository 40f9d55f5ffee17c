#include <algorithm>
#include <atomic>
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
  // form. For NFC, so is any text of characters that NFC leaves alone one
  // at a time and that never combine with a neighbour: everything below
  // U+0300 (NFC_Quick_Check=Yes, no combining marks), and characters of
  // combining class 0 whose NFC is themselves, outside the scripts where a
  // class-0 sign composes with the letter before it.
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
      // U+0080..U+02FF (Latin-1, Latin Extended): two bytes, lead below
      // 0xCC, stable without decoding or a table lookup.
      if (b >= 0xC2 && b < 0xCC && i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) {
        i += 2;
        continue;
      }
      int len;
      const char32_t cp = utf8::decode(text, i, &len);
      i += len;
      if (cp >= 0x300 && !NfcStable(cp)) return false;
    }
    return true;
  }

  // Whether NFC leaves cp alone and it never combines with a neighbour;
  // BMP answers are kept per code point (relaxed atomics: any thread may
  // fill an entry, all compute the same value).
  bool NfcStable(char32_t cp) const {
    if (cp >= 0x10000) return Compute(cp);
    uint8_t v = stable_[cp].load(std::memory_order_relaxed);
    if (v == 0) {
      v = Compute(cp) ? 1 : 2;
      stable_[cp].store(v, std::memory_order_relaxed);
    }
    return v == 1;
  }

  static bool Compute(char32_t cp) {
    // Scripts with vowel signs or jamo of combining class 0 that compose
    // with the preceding letter: Indic to Myanmar, Hangul jamo, Balinese,
    // and the Brahmic scripts of plane 1 (emoji stay on the fast path).
    if (cp >= 0x0900 && cp < 0x1200) return false;
    if (cp >= 0x1B00 && cp < 0x1B80) return false;
    if (cp >= 0x10000 && !(cp >= 0x1F000 && cp < 0x1FB00)) return false;
    if (unicode::combining_class(cp) != 0) return false;
    std::u32string one(1, cp), out;
    unicode::normalize(unicode::NormForm::NFC, one, &out, nullptr);
    return out == one;
  }

  unicode::NormForm form_;
  // Per BMP code point: 0 not known yet, 1 NfcStable, 2 not.
  std::unique_ptr<std::atomic<uint8_t>[]> stable_{new std::atomic<uint8_t>[0x10000]()};
};

}  // namespace

NormalizerPtr MakeUnicodeFormNormalizer(unicode::NormForm form) {
  return std::make_unique<UnicodeFormNormalizer>(form);
}

}  // namespace mtok
