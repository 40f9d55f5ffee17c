// Factories for every decoder. Each variant lives in its own file. Decoders
// follow HF's decode_chain: they rewrite a list of token strings.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/regex.h"
#include "pipeline.h"

namespace mtok {

using DecoderPtr = std::unique_ptr<Decoder>;

DecoderPtr MakeSequenceDecoder(std::vector<DecoderPtr> parts);
DecoderPtr MakeByteLevelDecoder();
// Appends the bytes a byte-level token stands for (each character mapped
// back to its byte); a token with a character outside the alphabet is
// appended as its own UTF-8, as HF's ByteLevel decoder does.
void AppendByteLevelBytes(std::string_view token, std::string* out);
DecoderPtr MakeByteFallbackDecoder();
DecoderPtr MakeFuseDecoder();
DecoderPtr MakeReplaceDecoder(std::string pattern, std::string content);
DecoderPtr MakeRegexReplaceDecoder(std::unique_ptr<Regex> pattern, std::string content);
DecoderPtr MakeStripDecoder(char32_t content, uint32_t start, uint32_t stop);
// drop_in_first: the prepend scheme is not "never".
DecoderPtr MakeMetaspaceDecoder(char32_t replacement, bool drop_in_first);
DecoderPtr MakeWordPieceDecoder(std::string prefix, bool cleanup);
DecoderPtr MakeCtcDecoder(std::string pad_token, std::string word_delimiter_token, bool cleanup);
DecoderPtr MakeBpeSuffixDecoder(std::string suffix);

struct SpmDecoderOptions {
  bool add_dummy_prefix = false;
  bool remove_extra_whitespaces = false;
  bool byte_fallback = false;  // "<0xXX>" tokens are byte pieces
  std::string_view unk_piece, unk_surface;
  std::vector<std::string_view> control;  // pieces that decode to nothing
};
DecoderPtr MakeSentencePieceDecoder(SpmDecoderOptions options);

}  // namespace mtok
