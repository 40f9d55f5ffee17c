#include "decoders/decoders.h"

namespace mtok {
namespace {

// HF BPEDecoder: the end-of-word suffix becomes a space, or nothing in the
// last token.
class BpeSuffixDecoder : public Decoder {
 public:
  explicit BpeSuffixDecoder(std::string suffix) : suffix_(std::move(suffix)) {}
  void Decode(std::vector<std::string>* tokens) const override {
    if (suffix_.empty()) return;
    for (size_t i = 0; i < tokens->size(); ++i) {
      std::string& t = (*tokens)[i];
      const std::string_view with = i + 1 == tokens->size() ? "" : " ";
      std::string out;
      size_t prev = 0;
      for (size_t at = t.find(suffix_); at != std::string::npos; at = t.find(suffix_, prev)) {
        out.append(t, prev, at - prev).append(with);
        prev = at + suffix_.size();
      }
      if (prev == 0) continue;
      out.append(t, prev, std::string::npos);
      t.swap(out);
    }
  }

 private:
  std::string suffix_;
};

}  // namespace

DecoderPtr MakeBpeSuffixDecoder(std::string suffix) {
  return std::make_unique<BpeSuffixDecoder>(std::move(suffix));
}

}  // namespace mtok
