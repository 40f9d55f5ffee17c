#include "encoding/encoding_ops.h"

namespace mtok {
namespace {

template <typename T>
void Extend(std::vector<T>* a, const std::vector<T>& b) {
  a->insert(a->end(), b.begin(), b.end());
}

}  // namespace

void MergeWith(Encoding* self, const Encoding& pair) {
  // Every overflowing piece on one side is combined with the other side and
  // its pieces, in HF's order.
  std::vector<Encoding> overflowing;
  for (const Encoding& mine : self->overflowing) {
    Encoding n = mine;
    MergeWith(&n, pair);
    overflowing.push_back(std::move(n));
    for (const Encoding& theirs : pair.overflowing) {
      Encoding m = mine;
      MergeWith(&m, theirs);
      overflowing.push_back(std::move(m));
    }
  }
  for (const Encoding& theirs : pair.overflowing) {
    Encoding n = *self;
    MergeWith(&n, theirs);
    overflowing.push_back(std::move(n));
  }

  const uint32_t shift = static_cast<uint32_t>(self->size());
  for (int s = 0; s < 2; ++s) {
    if (pair.sequences[s].set) {
      self->sequences[s] = {true, pair.sequences[s].begin + shift, pair.sequences[s].end + shift};
    }
  }
  Extend(&self->ids, pair.ids);
  Extend(&self->type_ids, pair.type_ids);
  Extend(&self->special_mask, pair.special_mask);
  Extend(&self->attention_mask, pair.attention_mask);
  Extend(&self->tokens, pair.tokens);
  Extend(&self->words, pair.words);
  Extend(&self->offsets, pair.offsets);
  self->detailed = self->detailed || pair.detailed;
  self->overflowing = std::move(overflowing);
}

void AppendSpecial(Encoding* e, uint32_t id, const std::string& token, uint32_t type_id) {
  e->ids.push_back(id);
  e->type_ids.push_back(type_id);
  e->special_mask.push_back(1);
  e->attention_mask.push_back(1);
  if (e->detailed) {
    e->tokens.push_back(token);
    e->words.push_back(-1);
    e->offsets.emplace_back(0, 0);
  }
}

}  // namespace mtok
