#include "byte_level_route.h"

#include "common/regex.h"
#include "models/bpe/byte_bpe.h"
#include "piece_cache.h"
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


ByteLevelRoute::ByteLevelRoute() : serial_(PieceCache::NewOwner()) {}

void ByteLevelRoute::EncodePiece(std::string_view piece, PieceCache& cache,
                                 std::vector<uint32_t>* ids) const {
  CachedIds(cache, piece, ids, [this](std::string_view p, std::vector<uint32_t>* out) { bpe_->Encode(p, out); });
}

void ByteLevelRoute::Encode(std::string_view s, bool /*at_input_start*/, std::vector<uint32_t>* ids) const {
  thread_local std::vector<std::pair<size_t, size_t>> matches;
  PieceCache& cache = PieceCache::ForThread(serial_);
  matches.clear();
  ids->reserve(ids->size() + s.size() / 4 + 16);  // about one id per 4 bytes of text
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
