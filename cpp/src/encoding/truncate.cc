#include <algorithm>
#include <utility>

#include "encoding/encoding_ops.h"

namespace mtok {
namespace {

template <typename T>
std::vector<T> Slice(const std::vector<T>& v, size_t b, size_t e) {
  if (v.empty()) return {};
  return std::vector<T>(v.begin() + b, v.begin() + e);
}

Encoding Part(const Encoding& e, size_t b, size_t end) {
  Encoding out;
  out.ids = Slice(e.ids, b, end);
  out.type_ids = Slice(e.type_ids, b, end);
  out.special_mask = Slice(e.special_mask, b, end);
  out.attention_mask = Slice(e.attention_mask, b, end);
  out.tokens = Slice(e.tokens, b, end);
  out.words = Slice(e.words, b, end);
  out.offsets = Slice(e.offsets, b, end);
  out.detailed = e.detailed;
  return out;
}

}  // namespace

void Truncate(Encoding* e, size_t max_len, size_t stride, Side direction) {
  const size_t n = e->size();
  if (max_len >= n) return;
  if (max_len == 0) {
    Encoding empty;
    empty.detailed = e->detailed;
    empty.overflowing.push_back(std::move(*e));
    *e = std::move(empty);
    return;
  }
  // The parts: windows of max_len tokens, each starting `step` after the last.
  const size_t step = max_len - stride;
  std::vector<std::pair<size_t, size_t>> parts;
  if (direction == Side::kRight) {
    for (size_t start = 0; start < n; start += step) {
      size_t stop = std::min(start + max_len, n);
      parts.emplace_back(start, stop);
      if (stop == n) break;
    }
  } else {
    for (size_t k = 0; k < n; k += step) {
      size_t stop = n - k;
      size_t start = stop > max_len ? stop - max_len : 0;
      parts.emplace_back(start, stop);
      if (start == 0) break;
    }
  }
  Encoding first = Part(*e, parts[0].first, parts[0].second);
  for (size_t i = 1; i < parts.size(); ++i) {
    first.overflowing.push_back(Part(*e, parts[i].first, parts[i].second));
  }
  *e = std::move(first);  // sequence ranges are lost, as in HF
}

Status TruncateEncodings(Encoding* a, Encoding* b, const TruncationParams& p) {
  auto checked = [&](Encoding* e, size_t len) -> Status {
    if (len > 0 && p.stride >= len && len < e->size())
      return EncodeError("truncation: stride " + std::to_string(p.stride) +
                         " must be less than the length a sequence is cut to (" +
                         std::to_string(len) + ")");
    Truncate(e, len, p.stride, p.direction);
    return Status::Ok();
  };
  if (p.max_length == 0) {
    Truncate(a, 0, p.stride, p.direction);
    if (b) Truncate(b, 0, p.stride, p.direction);
    return Status::Ok();
  }
  const size_t total = a->size() + (b ? b->size() : 0);
  if (total <= p.max_length) return Status::Ok();
  const size_t to_remove = total - p.max_length;
  using S = TruncationParams::Strategy;
  if (p.strategy == S::kLongestFirst) {
    if (!b) return checked(a, total - to_remove);
    size_t n1 = a->size(), n2 = b->size();
    const bool swap = n1 > n2;
    if (swap) std::swap(n1, n2);
    n2 = n1 > p.max_length ? n1 : std::max(n1, p.max_length - n1);
    if (n1 + n2 > p.max_length) {
      n1 = p.max_length / 2;
      n2 = n1 + p.max_length % 2;
    }
    if (swap) std::swap(n1, n2);
    MTOK_RETURN_IF_ERROR(checked(a, n1));
    return checked(b, n2);
  }
  Encoding* target = p.strategy == S::kOnlyFirst ? a : b;
  if (!target) return EncodeError("Truncation error: Second sequence not provided");
  if (target->size() <= to_remove)
    return EncodeError(
        "Truncation error: Sequence to truncate too short to respect the provided max_length");
  return checked(target, target->size() - to_remove);
}

}  // namespace mtok
