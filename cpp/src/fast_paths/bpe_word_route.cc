#include "fast_paths/bpe_word_route.h"

#include "common/per_owner.h"
#include "fast_paths/piece_cache.h"

namespace mtok {

std::unique_ptr<BpeWordRoute> BpeWordRoute::Make(const PreTokenizer* pre, const Model& model) {
  if (ByteBpeOf(model) != nullptr) return nullptr;
  if (!BpeMaySplit(model)) return nullptr;
  return std::unique_ptr<BpeWordRoute>(new BpeWordRoute(pre, model));
}

BpeWordRoute::BpeWordRoute(const PreTokenizer* pre, const Model& model)
    : serial_(NewOwnerSerial()), pre_(pre), model_(&model) {}

const BpeBoundaries& BpeWordRoute::Boundaries() const {
  std::call_once(scanned_, [this] { boundaries_ = BpeBoundariesOf(*model_); });
  return boundaries_;
}

void BpeWordRoute::PrepareThread() const { PieceCache::ForThread(serial_); }

void BpeWordRoute::RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const {
  PieceCache::ForThread(serial_).Describe(out);
}

void BpeWordRoute::EncodePiece(std::string_view piece, PieceCache& cache, std::vector<uint32_t>* ids) const {
  auto encode = [this](std::string_view p, std::vector<uint32_t>* out) { model_->AppendIds(p, out); };
  const BpeBoundaries& cuts = Boundaries();
  size_t begin = 0;
  if (cuts.any()) {
    for (size_t p = piece.find(BpeBoundaries::kMark, 1); p != std::string_view::npos;
         p = piece.find(BpeBoundaries::kMark, p + BpeBoundaries::kMark.size())) {
      if (!cuts.SplitsAt(piece, p)) continue;
      CachedIds(cache, piece.substr(begin, p - begin), piece, ids, encode);
      begin = p;
    }
  }
  CachedIds(cache, piece.substr(begin), piece, ids, encode);
}

void BpeWordRoute::Encode(std::string_view segment, bool at_input_start, std::vector<uint32_t>* ids) const {
  PieceCache& cache = PieceCache::ForThread(serial_);
  if (pre_ == nullptr) {
    EncodePiece(segment, cache, ids);
    return;
  }
  std::vector<Piece> pieces(1);
  pieces[0].text.assign(segment);
  pieces[0].at_input_start = at_input_start;
  pre_->Apply(&pieces);
  for (const Piece& p : pieces) EncodePiece(p.text, cache, ids);
}

}  // namespace mtok
