// libFuzzer target: arbitrary bytes as a .mtok file. A file either fails
// with a FormatError or loads into a tokenizer that encodes and decodes.
#include "exercise.h"

namespace {
const char* kProbes[] = {"hello world", "<s> x </s>", "", "\t\n  \xc2\xa0 12345 don't",
                         "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e text \xf0\x9f\x98\x80",
                         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::unique_ptr<mtok::Tokenizer> tok;
  mtok::Status st = mtok::Tokenizer::Load(mtok::Buffer::Copy(data, size), &tok);
  if (!st.ok()) {
    if (st.kind() == mtok::ErrorKind::kInternal || st.message().empty()) std::abort();
    return 0;
  }
  for (int i = 0; i < 6; ++i) mtok_fuzz::EncodeDecode(*tok, kProbes[i], static_cast<uint8_t>(i));
  std::vector<uint32_t> ids;
  for (uint32_t id = 0; id < 64; ++id) ids.push_back(id);
  ids.push_back(tok->VocabSize(true));
  ids.push_back(0xFFFFFFFFu);
  mtok_fuzz::Decode(*tok, ids);
  mtok_fuzz::TokenStrings(*tok, ids);
  return 0;
}
