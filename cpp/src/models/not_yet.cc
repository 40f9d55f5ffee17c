// WordPiece and Unigram readers are not implemented yet: a clear error, never
// a guess.
#include "models/model_readers.h"

namespace mtok {

Status ReadWordPiece(ByteReader& r, bool, std::unique_ptr<Model>*) {
  return UnsupportedError(std::string(r.section()) + " at byte " + std::to_string(r.pos()) +
                          ": WordPiece models are not implemented yet");
}
Status ReadUnigram(ByteReader& r, bool, std::unique_ptr<Model>*) {
  return UnsupportedError(std::string(r.section()) + " at byte " + std::to_string(r.pos()) +
                          ": Unigram models are not implemented yet");
}

}  // namespace mtok
