#include "fast_paths/byte_level_route.h"

#include <algorithm>
#include <iterator>

#include "common/regex.h"
#include "models/bpe/byte_bpe.h"
#include "fast_paths/piece_cache.h"
#include "pre_tokenizers/pre_tokenizers.h"
#include "pre_tokenizers/scanner.h"

namespace mtok {

std::unique_ptr<ByteLevelRoute> ByteLevelRoute::Make(const PipelineShape& shape, const Model& model) {
  const ByteBpe* bpe = ByteBpeOf(model);
  const std::vector<PreTokenizerStage>& stages = shape.pre_tokenizer;
  if (bpe == nullptr || stages.empty()) return nullptr;
  const auto* byte_level = std::get_if<ByteLevelShape>(&stages.back());
  if (byte_level == nullptr || byte_level->add_prefix_space) return nullptr;
  std::unique_ptr<ByteLevelRoute> r(new ByteLevelRoute());
  r->bpe_ = bpe;
  if (stages.size() == 1 && byte_level->use_regex) {
    r->scanner_ = byte_level->scanner;  // GPT-2: ByteLevel splits with its own pattern
    return r;
  }
  const auto* split = stages.size() == 2 ? std::get_if<SplitShape>(&stages[0]) : nullptr;
  if (split == nullptr || byte_level->use_regex) return nullptr;
  r->regex_ = split->regex;
  r->scanner_ = split->scanner;
  if (split->behavior == SplitBehavior::kIsolated && !split->invert) return r;
  if (split->behavior == SplitBehavior::kRemoved && split->invert) {
    r->matches_only_ = true;
    return r;
  }
  return nullptr;
}


ByteLevelRoute::ByteLevelRoute() : serial_(NewOwnerSerial()) {}

void ByteLevelRoute::PrepareThread() const {
  PieceCache::ForThread(serial_);
  bpe_->PrepareThread();
}

// The scanners' patterns say (Scanner::AlwaysSplitsAfterNewline); a user
// pattern (regex_ without scanner_) promises nothing.
bool ByteLevelRoute::AlwaysSplitsAt(std::string_view s, size_t p) const {
  return scanner_ != nullptr && scanner_->AlwaysSplitsAfterNewline(s, p);
}

void ByteLevelRoute::RuntimeInfo(std::vector<std::pair<std::string, std::string>>* out) const {
  PieceCache::ForThread(serial_).Describe(out);
}

void ByteLevelRoute::Encode(std::string_view s, bool /*at_input_start*/, std::vector<uint32_t>* ids) const {
  PieceCache& cache = PieceCache::ForThread(serial_);
  ids->reserve(ids->size() + s.size() / 4 + 16);  // about one id per 4 bytes of text
  // The thread's pair memo, taken at the first miss (none on seen text).
  PairMemo* memo = nullptr;
  auto memo_of = [this, &memo]() -> PairMemo& { return memo != nullptr ? *memo : *(memo = &bpe_->Memo()); };
  // A hit is handled inline; a miss runs the merges, of a long piece part
  // by part where it can be cut (a first-seen CJK clause is mostly parts
  // seen before).
  auto part = [this, &memo_of](std::string_view p, std::vector<uint32_t>* out) { bpe_->EncodePart(p, out, memo_of()); };
  auto merge = [this, &cache, &part, &memo_of](std::string_view p, std::vector<uint32_t>* out) {
    if (p.size() < ByteBpe::kMinCutBytes) return bpe_->Encode(p, out, memo_of());
    // A piece with a cut is no token (a token's own bytes lie across each
    // of its inner points), so only an uncut one is looked up whole: a
    // first-seen CJK clause skips a probe of the token index.
    size_t cut = bpe_->NextCut(p, 0);
    if (cut == p.size()) return bpe_->Encode(p, out, memo_of());
    // The parts' ends, a batch at a time (CachedPartsIds prefetches them),
    // and the ids of those that are one character.
    size_t ends[32];
    uint32_t known[std::size(ends)];
    static_assert(ByteBpe::kNoToken == kUnknownId, "a part CharToken does not know is looked up");
    for (size_t start = 0, n; start < p.size(); start = ends[n - 1]) {
      n = 0;
      size_t from = start;
      do {
        known[n] = bpe_->CharToken(p.substr(from, cut - from));
        ends[n++] = from = cut;
        if (cut < p.size()) cut = bpe_->NextCut(p, cut);
      } while (n < std::size(ends) && from < p.size());
      CachedPartsIds(cache, p, start, ends, known, n, out, part);
    }
  };
  // The last batch missed the cache for at least one piece in 16 (on this
  // thread): its first-seen short pieces are looked up in the short-token
  // table (ByteBpe::EncodeAsToken) after their cache sets, one more wait
  // for memory each, so the next batch prefetches those slots with its
  // sets. Not on text seen before: there every prefetch is a cost (2 KB
  // repeated windows 7% slower; bench/README.md, twenty-fourth session).
  // A thread's first text is first seen.
  thread_local bool missing_text = true;
  size_t prev = 0;  // end of the last match
  // The text between matches, unless the split removes it. (Kept in
  // locals: as captures, this flag and `prev` were loaded and stored at
  // every match, the compiler unable to tell the id writes leave them.)
  const bool gaps = !matches_only_;
  auto encode_matches = [&](const Scanner::Span* matches, size_t count) {
    const std::string_view text = s;
    size_t end = prev;
    // A batch at a time: the keys of its short pieces are made and their
    // sets prefetched, then looked up.
    constexpr size_t kBatch = 64;
    PieceCache::ShortKey keys[kBatch];
    const ShortTokens* shorts = bpe_->ShortTokensAsked();
    for (size_t base = 0; base < count; base += kBatch) {
      const Scanner::Span* batch = matches + base;
      const size_t m = std::min(kBatch, count - base);
      const bool fetch_tokens = shorts != nullptr && missing_text;
      const uint64_t misses_before = cache.misses();
      // 16 bytes readable from every piece's start: the batch's keys are
      // made without testing it piece by piece.
      const bool wide = text.size() - batch[m - 1].first >= 16;
      for (size_t k = 0; k < m; ++k) {
        const std::string_view piece(text.data() + batch[k].first, batch[k].second - batch[k].first);
        if (PieceCache::IsShort(piece)) {
          keys[k] = wide ? PieceCache::MakeShortWide(piece) : PieceCache::MakeShort(piece, text);
          cache.Prefetch(keys[k]);
          if (fetch_tokens && piece.size() - 2 < ShortTokens::kMaxBytes - 1) {
            shorts->Prefetch(keys[k].w0, piece.size());  // a short key's w0 holds its bytes as the table's do
          }
        } else if (piece.size() <= PieceCache::kMaxHuge) {
          cache.PrefetchLonger(piece);  // CJK clauses: most are long keys
        }
      }
      // Short hits' ids are staged and appended a batch at a time.
      StagedIds<kBatch> staged(ids);
      for (size_t k = 0; k < m; ++k) {
        const auto [b, e] = batch[k];
        if (gaps && end < b) {
          staged.Flush();
          CachedIds(cache, text.substr(end, b - end), text, ids, merge);
        }
        const std::string_view piece(text.data() + b, e - b);
        if (PieceCache::IsShort(piece)) {
          CachedShortIds(cache, staged, keys[k], piece, merge);
        } else if (e > b) {
          staged.Flush();
          CachedIds(cache, piece, text, ids, merge);
        }
        end = e;
      }
      staged.Flush();
      missing_text = (cache.misses() - misses_before) * 16 >= m;
    }
    prev = end;
  };
  if (scanner_) {
    // Pre-tokens go to the cache as the scanner finds them, a batch at a
    // time: no match vector.
    Scanner::Span batch[64];
    for (size_t from = 0; from < s.size();) encode_matches(batch, scanner_->FindSome(s, from, batch, 64, &from));
  } else {
    thread_local std::vector<Scanner::Span> matches;
    matches.clear();
    ThrowIfError(regex_->FindAll(s, &matches));
    encode_matches(matches.data(), matches.size());
  }
  if (gaps && prev < s.size()) CachedIds(cache, s.substr(prev), s, ids, merge);
}

}  // namespace mtok
