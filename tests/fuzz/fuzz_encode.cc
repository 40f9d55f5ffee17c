// libFuzzer target: arbitrary input to one real tokenizer, named by
// $MTOK_FUZZ_TOKENIZER (a .mtok file; tests/fuzz/make_tokenizers.py writes
// one per model family). Byte 0 picks the encode options; the rest is the
// text when it is valid UTF-8, and is always also decoded as ids.
#include <cstdlib>

#include "exercise.h"

namespace {
std::unique_ptr<mtok::Tokenizer> g_tok;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* path = std::getenv("MTOK_FUZZ_TOKENIZER");
  if (path == nullptr) {
    std::fprintf(stderr, "set MTOK_FUZZ_TOKENIZER to a .mtok file\n");
    std::exit(2);
  }
  std::shared_ptr<const mtok::Buffer> buf;
  mtok::Status st = mtok::Buffer::MapFile(path, &buf);
  if (st.ok()) st = mtok::Tokenizer::Load(buf, &g_tok);
  if (!st.ok()) {
    std::fprintf(stderr, "%s: %s\n", path, st.message().c_str());
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  size_t bad;
  if (mtok::utf8::validate(text, &bad)) mtok_fuzz::EncodeDecode(*g_tok, text, data[0]);
  std::vector<uint32_t> ids = mtok_fuzz::IdsFrom(*g_tok, data, size);
  mtok_fuzz::Decode(*g_tok, ids);
  mtok_fuzz::TokenStrings(*g_tok, ids);
  return 0;
}
