#include "decoders/cleanup.h"
#include "decoders/decoders.h"

namespace mtok {
namespace {

void ReplaceAll(std::string* s, std::string_view from, std::string_view to) {
  if (from.empty()) return;
  std::string out;
  size_t prev = 0;
  for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, prev)) {
    out.append(*s, prev, at - prev).append(to);
    prev = at + from.size();
  }
  if (prev == 0) return;
  out.append(*s, prev, std::string::npos);
  s->swap(out);
}

// HF CTC decoder: collapse repeated tokens, drop the pad token, optionally
// clean up and turn the word delimiter into a space; empty tokens vanish.
class CtcDecoder : public Decoder {
 public:
  CtcDecoder(std::string pad, std::string delimiter, bool cleanup)
      : pad_(std::move(pad)), delimiter_(std::move(delimiter)), cleanup_(cleanup) {}
  void Decode(std::vector<std::string>* tokens) const override {
    std::vector<std::string> out;
    for (size_t i = 0; i < tokens->size(); ++i) {
      if (i > 0 && (*tokens)[i] == (*tokens)[i - 1]) continue;
      std::string t = (*tokens)[i];
      ReplaceAll(&t, pad_, "");
      if (cleanup_) {
        CleanupTokenizationSpaces(&t);
        ReplaceAll(&t, delimiter_, " ");
      }
      if (!t.empty()) out.push_back(std::move(t));
    }
    tokens->swap(out);
  }

 private:
  std::string pad_, delimiter_;
  bool cleanup_;
};

}  // namespace

DecoderPtr MakeCtcDecoder(std::string pad_token, std::string word_delimiter_token, bool cleanup) {
  return std::make_unique<CtcDecoder>(std::move(pad_token), std::move(word_delimiter_token), cleanup);
}

}  // namespace mtok
