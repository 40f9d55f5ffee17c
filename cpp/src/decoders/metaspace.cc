#include "common/utf8.h"
#include "decoders/decoders.h"

namespace mtok {
namespace {

// HF Metaspace decoder: the replacement becomes a space, except in the first
// token (unless the prepend scheme is "never"), where it is dropped.
class MetaspaceDecoder : public Decoder {
 public:
  MetaspaceDecoder(char32_t replacement, bool drop_in_first) : drop_in_first_(drop_in_first) {
    utf8::append(rep_, replacement);
  }
  void Decode(std::vector<std::string>* tokens) const override {
    for (size_t i = 0; i < tokens->size(); ++i) {
      std::string& t = (*tokens)[i];
      const std::string_view with = i == 0 && drop_in_first_ ? "" : " ";
      std::string out;
      size_t from = 0;
      for (size_t at = t.find(rep_); at != std::string::npos; at = t.find(rep_, from)) {
        out.append(t, from, at - from).append(with);
        from = at + rep_.size();
      }
      if (from == 0) continue;
      out.append(t, from, std::string::npos);
      t.swap(out);
    }
  }

 private:
  std::string rep_;
  bool drop_in_first_;
};

}  // namespace

DecoderPtr MakeMetaspaceDecoder(char32_t replacement, bool drop_in_first) {
  return std::make_unique<MetaspaceDecoder>(replacement, drop_in_first);
}

}  // namespace mtok
