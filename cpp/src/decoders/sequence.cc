#include "decoders/decoders.h"

namespace mtok {
namespace {

class SequenceDecoder : public Decoder {
 public:
  explicit SequenceDecoder(std::vector<DecoderPtr> parts) : parts_(std::move(parts)) {}
  void Decode(std::vector<std::string>* tokens) const override {
    for (const auto& d : parts_) d->Decode(tokens);
  }

 private:
  std::vector<DecoderPtr> parts_;
};

class FuseDecoder : public Decoder {
 public:
  void Decode(std::vector<std::string>* tokens) const override {
    std::string all;
    for (const std::string& t : *tokens) all += t;
    tokens->assign(1, std::move(all));
  }
};

}  // namespace

DecoderPtr MakeSequenceDecoder(std::vector<DecoderPtr> parts) {
  return std::make_unique<SequenceDecoder>(std::move(parts));
}
DecoderPtr MakeFuseDecoder() { return std::make_unique<FuseDecoder>(); }

}  // namespace mtok
