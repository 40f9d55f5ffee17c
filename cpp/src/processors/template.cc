#include "processors/template.h"

namespace mtok {

namespace {

void AppendSequence(const Encoding& e, uint32_t type_id, Encoding* out) {
  out->ids.insert(out->ids.end(), e.ids.begin(), e.ids.end());
  out->type_ids.insert(out->type_ids.end(), e.ids.size(), type_id);
  out->special_mask.insert(out->special_mask.end(), e.special_mask.begin(), e.special_mask.end());
}

}  // namespace

size_t PostProcessor::AddedTokens(bool pair) const {
  size_t n = 0;
  for (const TemplateItem& it : pair ? pair_ : single_) {
    if (it.kind == TemplateItem::kSpecial) n += it.ids.size();
  }
  return n;
}

void PostProcessor::Process(const Encoding& a, const Encoding* b, bool add_special,
                            Encoding* out) const {
  out->ids.clear();
  out->type_ids.clear();
  out->special_mask.clear();
  if (!active_ || !add_special) {
    AppendSequence(a, 0, out);
    if (b) AppendSequence(*b, 1, out);
    return;
  }
  for (const TemplateItem& it : b ? pair_ : single_) {
    switch (it.kind) {
      case TemplateItem::kSequenceA:
        AppendSequence(a, it.type_id, out);
        break;
      case TemplateItem::kSequenceB:
        if (b) AppendSequence(*b, it.type_id, out);
        break;
      case TemplateItem::kSpecial:
        out->ids.insert(out->ids.end(), it.ids.begin(), it.ids.end());
        out->type_ids.insert(out->type_ids.end(), it.ids.size(), it.type_id);
        out->special_mask.insert(out->special_mask.end(), it.ids.size(), 1);
        break;
    }
  }
}

}  // namespace mtok
