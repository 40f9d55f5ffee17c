#include "tokenizer_impl.h"

namespace mtok {
namespace {

// The normalized form of each added token, for tokens matched after
// normalization.
std::vector<std::string> NormalizedForms(const std::vector<AddedToken>& tokens,
                                         const Normalizer* n) {
  std::vector<std::string> forms;
  forms.reserve(tokens.size());
  for (const AddedToken& t : tokens) {
    Piece p;
    p.text = std::string(t.content);
    if (t.normalized && n != nullptr) n->Normalize(&p);
    forms.push_back(std::move(p.text));
  }
  return forms;
}

}  // namespace

Status TokenizerImpl::Load(std::shared_ptr<const Buffer> bytes) {
  MTOK_RETURN_IF_ERROR(ReadMtok(std::move(bytes), this));
  try {  // added tokens are normalized while assembling
    return Assemble();
  } catch (StageError& e) {
    return FormatError("normalizing the added tokens: " + e.status.message());
  }
}

Status TokenizerImpl::Assemble() {
  std::vector<std::string> forms = NormalizedForms(added_tokens, normalizer.get());
  added = std::make_unique<AddedVocabulary>(std::move(added_tokens), std::move(forms));
  added_tokens.clear();
  post.ResolveTokens([&](uint32_t id) {
    std::string s;
    IdToToken(id, &s);
    return s;
  });
  // Normalized added tokens are matched between normalization and the
  // pre-tokenizer, so a route cannot fuse those two stages then.
  const Normalizer* fusable = added->has_normalized() ? nullptr : normalizer.get();
  route = MakeIdsRoute(fusable, pre_tokenizer.get(), *model);
  // The loading thread usually encodes next: its caches are made now, so
  // that the first encode does not wait for the kernel to clear their pages.
  if (route) route->PrepareThread();
  return Status::Ok();
}

bool TokenizerImpl::IdToToken(uint32_t id, std::string* token) const {
  std::string_view text = added->IdText(id);
  if (text.data() != nullptr) {
    token->assign(text);
    return true;
  }
  std::string_view s = model->IdToToken(id);
  if (s.data() == nullptr) return false;
  token->assign(s);
  return true;
}

}  // namespace mtok
