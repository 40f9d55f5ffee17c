#include <algorithm>

#include "encoding/encoding_ops.h"

namespace mtok {
namespace {

template <typename T>
void PadVector(std::vector<T>* v, size_t n, const T& value, Side side) {
  v->insert(side == Side::kLeft ? v->begin() : v->end(), n, value);
}

}  // namespace

size_t PadTarget(size_t longest, const PaddingParams& p) {
  size_t target = p.fixed ? p.length : longest;
  const size_t m = p.pad_to_multiple_of;
  if (m > 0 && target % m > 0) target += m - target % m;
  return target;
}

void Pad(Encoding* e, size_t target, const PaddingParams& p) {
  for (Encoding& o : e->overflowing) Pad(&o, target, p);
  if (e->size() >= target) return;
  const size_t n = target - e->size();
  const Side side = p.direction;
  PadVector(&e->ids, n, p.pad_id, side);
  PadVector(&e->type_ids, n, p.pad_type_id, side);
  PadVector(&e->special_mask, n, uint8_t{1}, side);
  PadVector(&e->attention_mask, n, uint8_t{0}, side);
  if (e->detailed) {
    PadVector(&e->tokens, n, p.pad_token, side);
    PadVector(&e->words, n, int32_t{-1}, side);
    PadVector(&e->offsets, n, std::pair<uint32_t, uint32_t>{0, 0}, side);
  }
  if (side == Side::kLeft) {
    for (Encoding::Range& r : e->sequences) {
      if (r.set) {
        r.begin += static_cast<uint32_t>(n);
        r.end += static_cast<uint32_t>(n);
      }
    }
  }
}

void PadBatch(std::vector<Encoding>* batch, const PaddingParams& p) {
  if (batch->empty()) return;
  size_t longest = 0;
  for (const Encoding& e : *batch) longest = std::max(longest, e.size());
  const size_t target = PadTarget(longest, p);
  for (Encoding& e : *batch) Pad(&e, target, p);
}

}  // namespace mtok
