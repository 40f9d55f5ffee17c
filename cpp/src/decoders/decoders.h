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
DecoderPtr MakeByteFallbackDecoder();
DecoderPtr MakeFuseDecoder();
DecoderPtr MakeReplaceDecoder(std::string pattern, std::string content);
DecoderPtr MakeRegexReplaceDecoder(std::unique_ptr<Regex> pattern, std::string content);
DecoderPtr MakeStripDecoder(char32_t content, uint32_t start, uint32_t stop);

}  // namespace mtok
