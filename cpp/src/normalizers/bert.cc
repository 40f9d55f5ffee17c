#include "common/hf_char_classes.h"
#include "normalizers/bert_chars.h"
#include "normalizers/char_map.h"
#include "normalizers/normalizers.h"

namespace mtok {
namespace {

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
          if (bert::IsCleaned(c)) return;
          if (bert::IsWhitespace(c)) c = ' ';
        }
        if (chinese_ && bert::IsChineseChar(c)) {
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

  void Describe(std::vector<NormalizerStage>* out) const override {
    out->push_back(BertNormalizerShape{clean_, chinese_, strip_, lower_});
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
