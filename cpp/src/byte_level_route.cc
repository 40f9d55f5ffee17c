#include "byte_level_route.h"

#include <array>
#include <atomic>

#include "common/regex.h"
#include "models/bpe/byte_bpe.h"
#include "models/bpe/piece_cache.h"
#include "pre_tokenizers/pre_tokenizers.h"
#include "pre_tokenizers/scanner.h"

namespace mtok {

std::unique_ptr<ByteLevelRoute> ByteLevelRoute::Make(const PreTokenizer* pre, const Model& model) {
  if (pre == nullptr || model.byte_bpe() == nullptr) return nullptr;
  std::vector<PreTokenizerStage> stages;
  pre->Describe(&stages);
  std::unique_ptr<ByteLevelRoute> r(new ByteLevelRoute());
  r->bpe_ = model.byte_bpe();
  if (stages.size() == 1 && stages[0].kind == PreTokenizerStage::kByteLevel &&
      stages[0].use_regex && !stages[0].add_prefix_space) {
    r->regex_ = stages[0].regex;  // GPT-2: ByteLevel splits with its own regex
    r->scanner_ = stages[0].scanner;
    return r;
  }
  if (stages.size() == 2 && stages[0].kind == PreTokenizerStage::kSplit &&
      stages[1].kind == PreTokenizerStage::kByteLevel && !stages[1].use_regex &&
      !stages[1].add_prefix_space) {
    auto behavior = static_cast<SplitBehavior>(stages[0].behavior);
    r->regex_ = stages[0].regex;
    r->scanner_ = stages[0].scanner;
    if (behavior == SplitBehavior::kIsolated && !stages[0].invert) return r;
    if (behavior == SplitBehavior::kRemoved && stages[0].invert) {
      r->matches_only_ = true;
      return r;
    }
  }
  return nullptr;
}

namespace {

std::atomic<uint64_t> next_serial{1};

// This thread's cache for the route with the given serial. A thread keeps
// caches for a few tokenizers, so alternating between them stays cheap.
PieceCache& CacheFor(uint64_t serial) {
  constexpr size_t kKept = 4;
  thread_local std::array<std::pair<uint64_t, std::unique_ptr<PieceCache>>, kKept> caches;
  thread_local size_t next_victim = 0;
  for (auto& [owner, cache] : caches) {
    if (owner == serial) return *cache;
  }
  auto& slot = caches[next_victim];
  next_victim = (next_victim + 1) % kKept;
  slot.first = serial;
  slot.second = std::make_unique<PieceCache>();
  return *slot.second;
}

}  // namespace

ByteLevelRoute::ByteLevelRoute() : serial_(next_serial.fetch_add(1)) {}

void ByteLevelRoute::EncodePiece(std::string_view piece, PieceCache& cache,
                                 std::vector<uint32_t>* ids) const {
  if (piece.size() > PieceCache::kMaxKey) {
    bpe_->Encode(piece, ids);
    return;
  }
  uint64_t h = HashBytes(piece.data(), piece.size());
  uint32_t begin, count;
  if (cache.Find(piece, h, &begin, &count)) {
    ids->insert(ids->end(), cache.ids() + begin, cache.ids() + begin + count);
    return;
  }
  size_t before = ids->size();
  bpe_->Encode(piece, ids);
  cache.Put(piece, h, ids->data() + before, ids->size() - before);
}

void ByteLevelRoute::Encode(std::string_view s, std::vector<uint32_t>* ids) const {
  thread_local std::vector<std::pair<size_t, size_t>> matches;
  PieceCache& cache = CacheFor(serial_);
  matches.clear();
  if (scanner_) scanner_->FindAll(s, &matches);
  else ThrowIfError(regex_->FindAll(s, &matches));
  size_t prev = 0;
  for (auto [b, e] : matches) {
    if (!matches_only_ && prev < b) EncodePiece(s.substr(prev, b - prev), cache, ids);
    if (e > b) EncodePiece(s.substr(b, e - b), cache, ids);
    prev = e;
  }
  if (!matches_only_ && prev < s.size()) EncodePiece(s.substr(prev), cache, ids);
}

}  // namespace mtok
