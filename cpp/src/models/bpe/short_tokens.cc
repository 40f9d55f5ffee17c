#include "models/bpe/short_tokens.h"

#include <algorithm>

#include "models/bpe/raw_tables.h"

namespace mtok {

void ShortTokens::Point(const Slot* slots, unsigned bits) {
  slots_ = slots;
  mask_ = (size_t{1} << bits) - 1;
  shift_ = 64 - bits;
}

bool ShortTokens::Build(const RawTables& raw) {
  size_t count = 0;
  for (uint32_t id = 0; id < raw.count; ++id) {
    const size_t n = raw.Token(id).size();
    count += n >= 1 && n <= kMaxBytes;
  }
  // At most two thirds full: a lookup of a pre-token that is no token
  // (most of them) reads on to an empty slot, mostly in the same line.
  unsigned bits = kMinBits;
  while ((size_t{1} << bits) < count + count / 2) ++bits;
  if (bits > kMaxBits || !mem_.Allocate(sizeof(Slot) << bits)) return false;
  auto* slots = reinterpret_cast<Slot*>(mem_.data());
  const size_t mask = (size_t{1} << bits) - 1;
  // Ids ascending: the first of several with the same bytes stays.
  for (uint32_t id = 0; id < raw.count; ++id) {
    const std::string_view t = raw.Token(id);
    if (t.empty() || t.size() > kMaxBytes) continue;
    const uint64_t w = Load(t.data(), t.size());
    const auto n = static_cast<uint32_t>(t.size());
    uint32_t probe = 0;
    for (size_t i = Hash(w, n) >> (64 - bits);; i = (i + 1) & mask, ++probe) {
      Slot& s = slots[i];
      if (s.len == 0) {
        s = Slot{w, id, n};
        ++count_;
        max_probe_ = std::max(max_probe_, probe);
        break;
      }
      if (s.key == w && s.len == n) break;
    }
  }
  Point(slots, bits);
  return true;
}

std::string ShortTokens::Payload() const {
  if (empty()) return {};
  const uint32_t head[4] = {64 - shift_, max_probe_, static_cast<uint32_t>(count_), 0};
  std::string out(reinterpret_cast<const char*>(head), kHeader);
  out.append(reinterpret_cast<const char*>(slots_), bytes());
  return out;
}

Status ShortTokens::Parse(std::string_view payload, uint32_t id_limit, ShortTokens* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section BSHT: " + what); };
  uint32_t head[4];
  if (payload.size() < kHeader) return fail("too short");
  std::memcpy(head, payload.data(), kHeader);
  const uint32_t bits = head[0];
  if (bits < kMinBits || bits > kMaxBits)
    return fail("a table of 2^" + std::to_string(bits) + " slots (2^" + std::to_string(kMinBits) + " to 2^" +
                std::to_string(kMaxBits) + ")");
  if (head[1] >> bits != 0) return fail("a probe longer than the table");
  if (head[3] != 0) return fail("reserved word is not 0");
  if (payload.size() != kHeader + (sizeof(Slot) << bits)) return fail("size does not match");
  if (reinterpret_cast<uintptr_t>(payload.data()) % 8 != 0) return fail("misaligned");
  out->Point(reinterpret_cast<const Slot*>(payload.data() + kHeader), bits);
  out->max_probe_ = head[1];
  out->count_ = head[2];
  out->id_limit_ = id_limit;
  return Status::Ok();
}

}  // namespace mtok
