#include "common/hf_char_classes.h"
#include "common/unicode.h"
#include "normalizers/char_map.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

bool IsBertWhitespace(char32_t c) {
  return c == '\t' || c == '\n' || c == '\r' || unicode::is_white_space(c);
}

// The unicode_categories crate's is_other: Cc, Cf, Co (not Cn), Unicode 8.0.
bool IsBertControl(char32_t c) {
  if (c == '\t' || c == '\n' || c == '\r') return false;
  return unicode::IsBertOther(c);
}

bool IsChineseChar(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
         (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// HF BertNormalizer: clean text, pad CJK ideographs with spaces, strip
// accents (NFD then drop Mn as of Unicode 8.0), lowercase, in that order.
class BertNormalizer : public Normalizer {
 public:
  BertNormalizer(bool clean, bool chinese, bool strip, bool lower)
      : clean_(clean), chinese_(chinese), strip_(strip), lower_(lower),
        nfd_(MakeUnicodeFormNormalizer(unicode::NormForm::NFD)),
        lowercase_(MakeLowercaseNormalizer()) {}

  void Normalize(Piece* p) const override {
    if (clean_ || chinese_) {
      MapCodePoints(p, [this](char32_t c, std::u32string* out) {
        if (clean_) {
          if (c == 0 || c == 0xFFFD || IsBertControl(c)) return;
          if (IsBertWhitespace(c)) c = ' ';
        }
        if (chinese_ && IsChineseChar(c)) {
          out->append({U' ', c, U' '});
        } else {
          out->push_back(c);
        }
      });
    }
    if (strip_) {
      nfd_->Normalize(p);
      MapCodePoints(p, [](char32_t c, std::u32string* out) {
        if (!unicode::IsBertMn(c)) out->push_back(c);
      });
    }
    if (lower_) lowercase_->Normalize(p);
  }

 private:
  bool clean_, chinese_, strip_, lower_;
  NormalizerPtr nfd_, lowercase_;
};

}  // namespace

NormalizerPtr MakeBertNormalizer(bool clean_text, bool handle_chinese_chars, bool strip_accents,
                                 bool lowercase) {
  return std::make_unique<BertNormalizer>(clean_text, handle_chinese_chars, strip_accents,
                                          lowercase);
}

}  // namespace mtok
