#include "models/bpe/whole_tokens.h"

#include <cstring>

#include "common/bit_count.h"
#include "models/bpe/byte_bpe.h"

namespace mtok {

size_t WholeTokens::Count() const {
  size_t n = 0;
  for (uint64_t w : words_) n += static_cast<size_t>(BitCount(w));
  return n;
}

std::string WholeTokens::Payload() const {
  const uint32_t head[2] = {id_count_, 0};
  std::string out(reinterpret_cast<const char*>(head), sizeof(head));
  if (!words_.empty()) out.append(reinterpret_cast<const char*>(words_.data()), words_.size() * sizeof(uint64_t));
  return out;
}

Status WholeTokens::Parse(std::string_view payload, uint32_t id_count, WholeTokens* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section BWHL: " + what); };
  if (payload.size() < 8) return fail("too short");
  uint32_t count;
  std::memcpy(&count, payload.data(), 4);
  if (count != id_count)
    return fail("covers " + std::to_string(count) + " ids, the vocab has " + std::to_string(id_count));
  const size_t words = (size_t{count} + 63) / 64;
  if (payload.size() != 8 + words * 8) return fail("size does not match its " + std::to_string(count) + " ids");
  WholeTokens w(count);
  if (words > 0) std::memcpy(w.words_.data(), payload.data() + 8, words * 8);
  if (count % 64 != 0 && words > 0 && (w.words_.back() >> (count % 64)) != 0)
    return fail("bits set past the last id");
  *out = std::move(w);
  return Status::Ok();
}

WholeTokens ByteBpe::ComputeWholeTokens() const {
  WholeTokens whole(raw_->count);
  std::vector<uint32_t> ids;
  PairMemo& memo = Memo();
  for (uint32_t id = 0; id < raw_->count; ++id) {
    const std::string_view t = raw_->Token(id);
    uint32_t found;
    // Bytes that several ids share are looked up as the lowest of them.
    if (t.empty() || !raw_->Find(t, &found) || found != id) continue;
    ids.clear();
    if (t.size() == 1) ids.push_back(byte_id_[static_cast<unsigned char>(t[0])]);
    else Merge(t, &ids, memo);
    if (ids.size() == 1 && ids[0] == id) whole.Set(id);
  }
  return whole;
}

}  // namespace mtok
