// What HF tokenizers' Python surface needs from a compiled tokenizer: its
// added tokens with their flags, and the decoder over token strings.
#include "tokenizer_impl.h"
#include "mtok/tokenizer.h"

namespace mtok {

std::vector<AddedTokenInfo> Tokenizer::AddedTokens() const {
  std::vector<AddedTokenInfo> out;
  out.reserve(f_->added->tokens().size());
  for (const AddedToken& t : f_->added->tokens()) {
    AddedTokenInfo info;
    info.id = t.id;
    info.content.assign(t.content);
    info.special = t.special;
    info.lstrip = t.lstrip;
    info.rstrip = t.rstrip;
    info.single_word = t.single_word;
    info.normalized = t.normalized;
    out.push_back(std::move(info));
  }
  return out;
}

std::string Tokenizer::DecodeTokens(std::vector<std::string> tokens) const {
  std::string out;
  if (f_->decoder) {
    f_->decoder->Decode(&tokens);
    for (const std::string& t : tokens) out += t;
    return out;
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i) out += ' ';
    out += tokens[i];
  }
  return out;
}

Status Tokenizer::PostProcessEncodings(Encoding encoding, const Encoding* pair,
                                       const EncodeOptions& opt, Encoding* out) const {
  if (!pair) return PostProcess(&encoding, nullptr, opt, out);
  Encoding second = *pair;
  return PostProcess(&encoding, &second, opt, out);
}

}  // namespace mtok
