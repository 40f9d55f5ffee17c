#include "common/utf8.h"
#include "decoders/decoders.h"

namespace mtok {
namespace {

// HF Strip decoder: removes up to `start` leading and `stop` trailing
// occurrences of one character from each token.
class StripDecoder : public Decoder {
 public:
  StripDecoder(char32_t content, uint32_t start, uint32_t stop)
      : content_(content), start_(start), stop_(stop) {}
  void Decode(std::vector<std::string>* tokens) const override {
    for (std::string& t : *tokens) {
      std::u32string chars;
      for (size_t i = 0; i < t.size();) {
        int len;
        chars.push_back(utf8::decode(t, i, &len));
        i += len;
      }
      size_t b = 0, e = chars.size();
      for (uint32_t k = 0; k < start_ && b < chars.size() && chars[b] == content_; ++k) ++b;
      for (uint32_t k = 0; k < stop_ && e > b && chars[e - 1] == content_; ++k) --e;
      if (b == 0 && e == chars.size()) continue;
      std::string out;
      for (size_t i = b; i < e; ++i) utf8::append(out, chars[i]);
      t.swap(out);
    }
  }

 private:
  char32_t content_;
  uint32_t start_, stop_;
};

}  // namespace

DecoderPtr MakeStripDecoder(char32_t content, uint32_t start, uint32_t stop) {
  return std::make_unique<StripDecoder>(content, start, stop);
}

}  // namespace mtok
