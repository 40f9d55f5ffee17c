#include "processors/template.h"

#include <algorithm>

#include "encoding/encoding_ops.h"

namespace mtok {
namespace {

// Marks e (and its overflowing pieces) as sequence i and gives e one type
// id. HF's TemplateProcessing leaves the overflowing pieces the type id they
// were made with; its Bert and Roberta processors rebuild them with their
// own (`overflow_too`).
void AsSequence(Encoding* e, int i, uint32_t type_id, bool overflow_too) {
  e->type_ids.assign(e->size(), type_id);
  e->sequences[i] = {true, 0, static_cast<uint32_t>(e->size())};
  for (Encoding& o : e->overflowing) {
    o.sequences[i] = {true, 0, static_cast<uint32_t>(o.size())};
    if (overflow_too) o.type_ids.assign(o.size(), type_id);
  }
}

// The common case, without copies: one sequence, no details, no overflow.
void ProcessPlain(const Encoding& a, const std::vector<TemplateItem>& items, bool add_special,
                  Encoding* out) {
  for (const TemplateItem& it : items) {
    if (it.kind == TemplateItem::kSequenceA) {
      out->ids.insert(out->ids.end(), a.ids.begin(), a.ids.end());
      out->type_ids.insert(out->type_ids.end(), a.size(), it.type_id);
      out->special_mask.insert(out->special_mask.end(), a.size(), 0);
      out->sequences[0] = {true, static_cast<uint32_t>(out->size() - a.size()),
                           static_cast<uint32_t>(out->size())};
    } else if (it.kind == TemplateItem::kSpecial && add_special) {
      out->ids.insert(out->ids.end(), it.ids.begin(), it.ids.end());
      out->type_ids.insert(out->type_ids.end(), it.ids.size(), it.type_id);
      out->special_mask.insert(out->special_mask.end(), it.ids.size(), 1);
    }
  }
  out->attention_mask.assign(out->size(), 1);
}

}  // namespace

size_t PostProcessor::AddedTokens(bool pair) const {
  size_t n = 0;
  for (const TemplateItem& it : pair ? pair_ : single_) {
    if (it.kind == TemplateItem::kSpecial) n += it.ids.size();
  }
  return n;
}

void PostProcessor::ProcessIds(std::vector<uint32_t>* ids, bool add_special) const {
  if (!active_ || !add_special || AddedTokens(false) == 0) return;
  size_t before = 0, sequences = 0;
  for (const TemplateItem& it : single_) {
    if (it.kind == TemplateItem::kSequenceA) ++sequences;
    else if (it.kind == TemplateItem::kSpecial && sequences == 0) before += it.ids.size();
  }
  const size_t n = ids->size();
  if (sequences != 1) {  // a template that repeats or omits $A: built anew
    std::vector<uint32_t> out;
    for (const TemplateItem& it : single_) {
      if (it.kind == TemplateItem::kSequenceA) out.insert(out.end(), ids->begin(), ids->begin() + n);
      else if (it.kind == TemplateItem::kSpecial) out.insert(out.end(), it.ids.begin(), it.ids.end());
    }
    ids->swap(out);
    return;
  }
  // In place, so a reused vector needs no allocation: the sequence moves
  // right past the specials before it.
  ids->resize(n + AddedTokens(false));
  std::copy_backward(ids->begin(), ids->begin() + n, ids->begin() + before + n);
  size_t at = 0;
  for (const TemplateItem& it : single_) {
    if (it.kind == TemplateItem::kSequenceA) {
      at += n;
    } else if (it.kind == TemplateItem::kSpecial) {
      std::copy(it.ids.begin(), it.ids.end(), ids->begin() + at);
      at += it.ids.size();
    }
  }
}

void PostProcessor::Process(const Encoding& a, const Encoding* b, bool add_special,
                            Encoding* out) const {
  *out = Encoding();
  out->detailed = a.detailed;
  static const std::vector<TemplateItem> kPlain = {{TemplateItem::kSequenceA, 0, {}, {}}};
  if (!b && !a.detailed && a.overflowing.empty()) {
    ProcessPlain(a, active_ ? single_ : kPlain, add_special, out);
    return;
  }
  Encoding seqs[2] = {a, b ? *b : Encoding()};
  if (trim_offsets_) {
    for (int i = 0; i < (b ? 2 : 1); ++i) TrimOffsets(&seqs[i], trim_add_prefix_space_);
  }
  if (!active_) {
    for (int i = 0; i < (b ? 2 : 1); ++i) {
      AsSequence(&seqs[i], i, static_cast<uint32_t>(i), false);
      MergeWith(out, seqs[i]);
    }
    return;
  }
  for (const TemplateItem& it : b ? pair_ : single_) {
    if (it.kind == TemplateItem::kSpecial) {
      if (!add_special) continue;
      Encoding special;
      special.detailed = a.detailed;
      for (size_t k = 0; k < it.ids.size(); ++k) {
        AppendSpecial(&special, it.ids[k], k < it.tokens.size() ? it.tokens[k] : std::string(),
                      it.type_id);
      }
      MergeWith(out, special);
      continue;
    }
    const int i = it.kind == TemplateItem::kSequenceA ? 0 : 1;
    if (i == 1 && !b) continue;
    Encoding seq = seqs[i];
    AsSequence(&seq, i, it.type_id, overflow_type_ids_ && add_special);
    MergeWith(out, seq);
  }
}

}  // namespace mtok
