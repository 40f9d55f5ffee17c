#include "common/byte_level.h"
#include "common/utf8.h"
#include "decoders/decoders.h"

namespace mtok {
namespace {

// HF ByteLevel decoder: each token's characters map back to bytes (a token
// with a character outside the alphabet is kept as its own UTF-8), then the
// whole byte string is decoded lossily into one token.
class ByteLevelDecoder : public Decoder {
 public:
  void Decode(std::vector<std::string>* tokens) const override {
    std::string bytes;
    std::string mapped;
    for (const std::string& t : *tokens) {
      mapped.clear();
      bool ok = true;
      for (size_t i = 0; i < t.size();) {
        int len;
        char32_t c = utf8::decode(t, i, &len);
        int b = byte_level::CharToByte(c);
        if (b < 0) { ok = false; break; }
        mapped.push_back(static_cast<char>(b));
        i += len;
      }
      bytes += ok ? mapped : t;
    }
    tokens->assign(1, utf8::DecodeLossy(bytes));
  }
};

}  // namespace

DecoderPtr MakeByteLevelDecoder() { return std::make_unique<ByteLevelDecoder>(); }

}  // namespace mtok
