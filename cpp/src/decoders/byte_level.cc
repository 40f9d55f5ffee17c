#include "common/byte_level.h"
#include "common/utf8.h"
#include "decoders/decoders.h"

namespace mtok {

void AppendByteLevelBytes(std::string_view token, std::string* out) {
  const size_t start = out->size();
  for (size_t i = 0; i < token.size();) {
    int len;
    int b = byte_level::CharToByte(utf8::decode(token, i, &len));
    if (b < 0) {
      out->resize(start);
      out->append(token);
      return;
    }
    out->push_back(static_cast<char>(b));
    i += len;
  }
}

namespace {

// HF ByteLevel decoder: each token's characters map back to bytes (a token
// with a character outside the alphabet is kept as its own UTF-8), then the
// whole byte string is decoded lossily into one token.
class ByteLevelDecoder : public Decoder {
 public:
  void Decode(std::vector<std::string>* tokens) const override {
    std::string bytes;
    for (const std::string& t : *tokens) AppendByteLevelBytes(t, &bytes);
    tokens->assign(1, utf8::DecodeLossy(bytes));
  }
};

}  // namespace

DecoderPtr MakeByteLevelDecoder() { return std::make_unique<ByteLevelDecoder>(); }

}  // namespace mtok
