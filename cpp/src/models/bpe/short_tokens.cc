#include "models/bpe/short_tokens.h"

#include "models/bpe/raw_tables.h"

namespace mtok {

bool ShortTokens::Build(const RawTables& raw) {
  size_t count = 0;
  for (uint32_t id = 0; id < raw.count; ++id) {
    const size_t n = raw.Token(id).size();
    count += n >= 1 && n <= kMaxBytes;
  }
  // At most two thirds full: a lookup of a pre-token that is no token
  // (most of them) reads on to an empty slot, mostly in the same line.
  size_t bits = 4;
  while ((size_t{1} << bits) < count + count / 2) ++bits;
  if (!mem_.Allocate(sizeof(Slot) << bits)) return false;
  auto* slots = reinterpret_cast<Slot*>(mem_.data());
  mask_ = (size_t{1} << bits) - 1;
  shift_ = static_cast<unsigned>(64 - bits);
  // Ids ascending: the first of several with the same bytes stays.
  for (uint32_t id = 0; id < raw.count; ++id) {
    const std::string_view t = raw.Token(id);
    if (t.empty() || t.size() > kMaxBytes) continue;
    const uint64_t w = Load(t.data(), t.size());
    const auto n = static_cast<uint32_t>(t.size());
    for (size_t i = Hash(w, n) >> shift_;; i = (i + 1) & mask_) {
      Slot& s = slots[i];
      if (s.len == 0) {
        s = Slot{w, id, n};
        ++count_;
        break;
      }
      if (s.key == w && s.len == n) break;
    }
  }
  slots_ = slots;
  return true;
}

}  // namespace mtok
