#include "common/utf8.h"
#include "decoders/decoders.h"

namespace mtok {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// HF ByteFallback: runs of <0xXX> tokens become their bytes when those form
// valid UTF-8, else one U+FFFD per byte.
class ByteFallbackDecoder : public Decoder {
 public:
  void Decode(std::vector<std::string>* tokens) const override {
    std::vector<std::string> out;
    std::string pending;
    auto flush = [&] {
      if (pending.empty()) return;
      size_t bad;
      if (utf8::validate(pending, &bad)) {
        out.push_back(pending);
      } else {
        for (size_t i = 0; i < pending.size(); ++i) out.emplace_back("\xEF\xBF\xBD");
      }
      pending.clear();
    };
    for (std::string& t : *tokens) {
      int hi = -1, lo = -1;
      if (t.size() == 6 && t.compare(0, 3, "<0x") == 0 && t[5] == '>') {
        hi = HexDigit(t[3]);
        lo = HexDigit(t[4]);
      }
      if (hi >= 0 && lo >= 0) {
        pending.push_back(static_cast<char>(hi * 16 + lo));
      } else {
        flush();
        out.push_back(std::move(t));
      }
    }
    flush();
    tokens->swap(out);
  }
};

}  // namespace

DecoderPtr MakeByteFallbackDecoder() { return std::make_unique<ByteFallbackDecoder>(); }

}  // namespace mtok
