#include "models/bpe/pair_filter.h"

#include <cstring>

#include "models/bpe/pair_index.h"

namespace mtok {

PairFilter PairFilter::ForPairs(size_t pairs) {
  // 8 to 16 bits per pair (a power of two of blocks): at 8, about one
  // pair in 40 that does not merge still "may"; 16 bits measured no faster.
  size_t blocks = 1;
  while (blocks * 512 < pairs * 8) blocks <<= 1;
  PairFilter f;
  f.owned_.assign(blocks, Block{});
  f.blocks_ = f.owned_.data();
  f.mask_ = blocks - 1;
  return f;
}

PairFilter PairFilter::Build(const PairIndex& pairs) {
  size_t n = 0;
  for (size_t i = 0; i < pairs.capacity(); ++i) n += pairs.slots()[i].left != PairIndex::kEmpty;
  PairFilter f = ForPairs(n);
  for (size_t i = 0; i < pairs.capacity(); ++i) {
    const PairIndex::Slot& s = pairs.slots()[i];
    if (s.left != PairIndex::kEmpty) f.Add(s.left, s.right);
  }
  return f;
}

void PairFilter::Add(uint32_t left, uint32_t right) {
  const uint64_t h = Mix64((uint64_t{left} << 32) | right);
  Block& b = owned_[(h >> 40) & mask_];
  for (int k = 0; k < kBits; ++k) {
    const uint32_t bit = (h >> (9 * k)) & 511;
    b.w[bit / 64] |= uint64_t{1} << (bit % 64);
  }
}

std::string PairFilter::Payload() const {
  const uint32_t head[2] = {static_cast<uint32_t>(mask_ + 1), 0};
  std::string out(reinterpret_cast<const char*>(head), sizeof(head));
  out.append(reinterpret_cast<const char*>(blocks_), bytes());
  return out;
}

Status PairFilter::Parse(std::string_view payload, PairFilter* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section PFLT: " + what); };
  if (payload.size() < 8) return fail("too short");
  if (reinterpret_cast<uintptr_t>(payload.data()) % 8 != 0) return fail("payload is not 8-byte aligned");
  uint32_t blocks;
  std::memcpy(&blocks, payload.data(), 4);
  if (blocks == 0 || (blocks & (blocks - 1)) != 0)
    return fail("block count " + std::to_string(blocks) + " is not a power of two");
  if (payload.size() != 8 + uint64_t{blocks} * sizeof(Block))
    return fail("size does not match its " + std::to_string(blocks) + " blocks");
  PairFilter f;
  f.blocks_ = reinterpret_cast<const Block*>(payload.data() + 8);
  f.mask_ = blocks - 1;
  *out = std::move(f);
  return Status::Ok();
}

}  // namespace mtok
