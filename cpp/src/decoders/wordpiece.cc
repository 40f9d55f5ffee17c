#include "decoders/cleanup.h"
#include "decoders/decoders.h"

namespace mtok {
namespace {

// HF WordPiece decoder: tokens after the first lose the subword prefix or
// get a leading space; each token is then cleaned up when asked.
class WordPieceDecoder : public Decoder {
 public:
  WordPieceDecoder(std::string prefix, bool cleanup) : prefix_(std::move(prefix)), cleanup_(cleanup) {}
  void Decode(std::vector<std::string>* tokens) const override {
    for (size_t i = 0; i < tokens->size(); ++i) {
      std::string& t = (*tokens)[i];
      if (i != 0) {
        if (t.compare(0, prefix_.size(), prefix_) == 0) {
          t.erase(0, prefix_.size());
        } else {
          t.insert(0, " ");
        }
      }
      if (cleanup_) CleanupTokenizationSpaces(&t);
    }
  }

 private:
  std::string prefix_;
  bool cleanup_;
};

}  // namespace

DecoderPtr MakeWordPieceDecoder(std::string prefix, bool cleanup) {
  return std::make_unique<WordPieceDecoder>(std::move(prefix), cleanup);
}

}  // namespace mtok
