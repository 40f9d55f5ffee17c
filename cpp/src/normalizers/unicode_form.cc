#include <algorithm>
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
    if (p->align.empty()) {
      // No alignment to keep (the ids path): no source map to build and sort.
      NormalizeText(&p->text);
      return;
    }
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
  // A line break has no decomposition, composes with nothing after it and
  // has combining class 0, so no form reorders or composes across it.
  bool FormSplitsAfterLineBreak() const override { return true; }

 private:
  // True when the form cannot change `text`: ASCII is invariant under every
  // form, and NFC leaves alone any text whose code points are all
  // is_nfc_safe (the normalizer copies runs of them as they are).
  bool Unchanged(std::string_view text) const {
    if (form_ == unicode::NormForm::NFC) return unicode::first_nfc_unsafe(text, 0) == text.size();
    return utf8::ascii_end(text, 0) == text.size();
  }

  // The form of `text` (UTF-8) in place. NFC goes through the code points
  // around each one that is not is_nfc_safe, from the safe one before it
  // to the next safe one, and copies the rest as it is: a segment of mixed
  // text with one combining mark is no longer decoded whole.
  void NormalizeText(std::string* text) const {
    const std::string_view t = *text;
    std::string out;
    if (form_ != unicode::NormForm::NFC) {
      if (Unchanged(t)) return;
      AppendForm(t, &out);
    } else {
      size_t copied = 0;
      for (size_t unsafe = unicode::first_nfc_unsafe(t, 0); unsafe < t.size();) {
        size_t from = unsafe;  // back to the code point before (safe), unless copied up to here
        if (from > copied) {
          do --from;
          while (from > copied && (static_cast<unsigned char>(t[from]) & 0xC0) == 0x80);
        }
        int len;
        utf8::decode(t, unsafe, &len);
        size_t to = unsafe + static_cast<size_t>(len);
        // On to the next safe code point.
        while (to < t.size() && !unicode::is_nfc_safe(utf8::decode(t, to, &len))) to += static_cast<size_t>(len);
        if (out.empty()) out.reserve(t.size() + 8);
        out.append(t.substr(copied, from - copied));
        AppendForm(t.substr(from, to - from), &out);
        copied = to;
        unsafe = unicode::first_nfc_unsafe(t, to);
      }
      if (copied == 0) return;
      out.append(t.substr(copied));
    }
    if (out != t) text->swap(out);
  }

  // Appends the form of `part` (UTF-8) to *out.
  void AppendForm(std::string_view part, std::string* out) const {
    std::u32string in, normal;
    in.reserve(part.size());
    for (size_t i = 0; i < part.size();) {
      int len;
      in.push_back(utf8::decode(part, i, &len));
      i += static_cast<size_t>(len);
    }
    unicode::normalize(form_, in, &normal, nullptr);
    for (char32_t cp : normal) utf8::append(*out, cp);
  }

  unicode::NormForm form_;
};

}  // namespace

NormalizerPtr MakeUnicodeFormNormalizer(unicode::NormForm form) {
  return std::make_unique<UnicodeFormNormalizer>(form);
}

}  // namespace mtok
