// A loaded tokenizer's pipeline. Loading is parse, then assemble: ReadMtok
// (format/) turns the file's bytes into components, and Assemble derives
// what they imply together: the normalized form of each added token, the
// strings of the post-processor's special tokens, and the fast path
// (fast_paths/) that fits the pipeline's shape.
#pragma once
#include <memory>
#include <string>

#include "fast_paths/ids_route.h"
#include "format/section_readers.h"

namespace mtok {

struct TokenizerImpl : FileComponents {
  // Made from added_tokens, which Assemble leaves empty.
  std::unique_ptr<AddedVocabulary> added;
  std::unique_ptr<IdsRoute> route;  // fast path for ids, when the pipeline allows

  // Parses `bytes`, then assembles.
  Status Load(std::shared_ptr<const Buffer> bytes);

  // An added token's content, else the model's vocab entry.
  bool IdToToken(uint32_t id, std::string* token) const;

 private:
  Status Assemble();
};

}  // namespace mtok
