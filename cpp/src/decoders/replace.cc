#include "decoders/decoders.h"

namespace mtok {
namespace {

std::string ReplaceAll(const std::string& s, const std::vector<std::pair<size_t, size_t>>& m,
                       const std::string& content) {
  std::string out;
  size_t last = 0;
  for (auto [b, e] : m) {
    out.append(s, last, b - last);
    out += content;
    last = e;
  }
  out.append(s, last, std::string::npos);
  return out;
}

// HF Replace decoder: literal or regex replacement inside each token.
class ReplaceDecoder : public Decoder {
 public:
  ReplaceDecoder(std::string literal, std::unique_ptr<Regex> re, std::string content)
      : literal_(std::move(literal)), re_(std::move(re)), content_(std::move(content)) {}
  void Decode(std::vector<std::string>* tokens) const override {
    std::vector<std::pair<size_t, size_t>> m;
    for (std::string& t : *tokens) {
      m.clear();
      if (re_) {
        // Decode cannot fail: a token the pattern backtracks too long on
        // (only a hostile file's vocab can hold one) is left as it is.
        if (!re_->FindAll(t, &m).ok()) continue;
      } else if (!literal_.empty()) {
        for (size_t at = t.find(literal_); at != std::string::npos;
             at = t.find(literal_, at + literal_.size()))
          m.emplace_back(at, at + literal_.size());
      }
      if (!m.empty()) t = ReplaceAll(t, m, content_);
    }
  }

 private:
  std::string literal_;
  std::unique_ptr<Regex> re_;
  std::string content_;
};

}  // namespace

DecoderPtr MakeReplaceDecoder(std::string pattern, std::string content) {
  return std::make_unique<ReplaceDecoder>(std::move(pattern), nullptr, std::move(content));
}
DecoderPtr MakeRegexReplaceDecoder(std::unique_ptr<Regex> pattern, std::string content) {
  return std::make_unique<ReplaceDecoder>(std::string(), std::move(pattern), std::move(content));
}

}  // namespace mtok
