// mtok from C++: the public C++ classes (mtok::Tokenizer, mtok::DecodeStream)
// for encoding a batch on the thread pool and decoding as a stream, and the
// C API (which C++ includes as well) for the chat template.
//
// usage: mtok_example_cpp model.mtok "text" ["more text" ...]
#include <mtok/decode_stream.h>
#include <mtok/mtok.h>
#include <mtok/tokenizer.h>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s model.mtok text...\n", argv[0]);
    return 2;
  }
  std::shared_ptr<const mtok::Buffer> bytes;
  std::unique_ptr<mtok::Tokenizer> tok;
  mtok::Status st = mtok::Buffer::MapFile(argv[1], &bytes);
  if (st.ok()) st = mtok::Tokenizer::Load(bytes, &tok);
  if (!st.ok()) {
    std::fprintf(stderr, "cannot load %s: %s\n", argv[1], st.message().c_str());
    return 1;
  }

  // A batch on two threads; ids only, no truncation or padding.
  std::vector<std::string_view> texts(argv + 2, argv + argc);
  std::vector<std::vector<uint32_t>> rows;
  mtok::EncodeOptions options;  // add_special_tokens = true
  st = tok->EncodeBatchIds(texts.data(), nullptr, texts.size(), options, 2, &rows);
  if (!st.ok()) {
    std::fprintf(stderr, "encode failed: %s\n", st.message().c_str());
    return 1;
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    std::printf("text %zu: %zu ids:", i, rows[i].size());
    for (uint32_t id : rows[i]) std::printf(" %u", id);
    std::printf("\n  decoded: %s\n", tok->Decode(rows[i].data(), rows[i].size(), true).c_str());

    mtok::DecodeStream stream(/*skip_special_tokens=*/true);
    std::printf("  streamed:");
    for (uint32_t id : rows[i]) {
      bool has_text = false;
      std::string chunk;
      if (!stream.Step(*tok, &id, 1, &has_text, &chunk).ok()) break;
      if (has_text) std::printf(" [%s]", chunk.c_str());
    }
    std::printf("\n");
  }
  std::printf("vocab: %u tokens (%u with added tokens)\n", tok->VocabSize(false), tok->VocabSize(true));
  return 0;
}
