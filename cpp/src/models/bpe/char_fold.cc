#include "models/bpe/char_fold.h"

#include <algorithm>
#include <cstring>

#include "common/utf8.h"
#include "models/bpe/byte_bpe.h"

namespace mtok {

void CharFold::Add(char32_t cp, uint32_t id) {
  bits_[cp >> 6] |= uint64_t{1} << (cp & 63);
  ids_.push_back(id);
}

void CharFold::Index() {
  uint32_t seen = 0;
  for (size_t k = 0; k < kWords; ++k) {
    before_[k] = seen;
    seen += static_cast<uint32_t>(BitCount(bits_[k]));
  }
}

std::string CharFold::Payload() const {
  const uint32_t head[2] = {static_cast<uint32_t>(ids_.size()), 0};
  std::string out(reinterpret_cast<const char*>(head), sizeof(head));
  out.append(reinterpret_cast<const char*>(bits_), sizeof(bits_));
  if (!ids_.empty()) out.append(reinterpret_cast<const char*>(ids_.data()), ids_.size() * sizeof(uint32_t));
  return out;
}

Status CharFold::Parse(std::string_view payload, const RawTables& raw, CharFold* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section BFLD: " + what); };
  constexpr size_t kHead = 8 + sizeof(bits_);
  if (payload.size() < kHead) return fail("too short");
  uint32_t count;
  std::memcpy(&count, payload.data(), 4);
  if (payload.size() != kHead + uint64_t{count} * 4)
    return fail("size does not match its " + std::to_string(count) + " entries");
  CharFold f;
  std::memcpy(f.bits_, payload.data() + 8, sizeof(bits_));
  f.ids_.resize(count);
  if (count > 0) std::memcpy(f.ids_.data(), payload.data() + kHead, size_t{count} * 4);
  f.Index();
  if (f.before_[kWords - 1] + BitCount(f.bits_[kWords - 1]) != count)
    return fail("the bitmap does not mark " + std::to_string(count) + " characters");
  // Each entry must be its character's token: a wrong id would change
  // results silently, so it is refused here rather than used.
  std::string bytes;
  size_t k = 0;
  for (char32_t cp = 0; cp < kWords * 64; ++cp) {
    if (((f.bits_[cp >> 6] >> (cp & 63)) & 1) == 0) continue;
    bytes.clear();
    utf8::append(bytes, cp);
    if (cp < 0x80 || (cp >= 0xD800 && cp < 0xE000) || raw.Token(f.ids_[k]) != bytes)
      return fail("entry " + std::to_string(k) + " is not the token of its character");
    ++k;
  }
  *out = std::move(f);
  return Status::Ok();
}

namespace {

// Lowest rank at which a merge can take a symbol from outside a character:
// from_left[e], a merge (x, e) with x ending at a character boundary (its
// last byte below 0xC0, never a lead byte); from_right[e], a merge (e, y)
// with y starting at one (ASCII or a lead byte, never a continuation).
struct Steals {
  std::vector<uint32_t> from_left, from_right;

  Steals(const RawTables& raw)
      : from_left(raw.count, CharFold::kNone), from_right(raw.count, CharFold::kNone) {}

  void Add(const RawTables& raw, uint32_t left, uint32_t right, uint32_t rank) {
    const std::string_view a = raw.Token(left), b = raw.Token(right);
    if (a.empty() || b.empty()) return;
    Add(left, right, static_cast<unsigned char>(a.back()), static_cast<unsigned char>(b[0]), rank);
  }
  // `last`: left's last byte; `first`: right's first.
  void Add(uint32_t left, uint32_t right, unsigned char last, unsigned char first, uint32_t rank) {
    if (last < 0xC0) from_left[right] = std::min(from_left[right], rank);
    if (first < 0x80 || first >= 0xC2) from_right[left] = std::min(from_right[left], rank);
  }
};

}  // namespace

CharFold ByteBpe::ComputeCharFold(const RankSplits& splits, const PairFilter* filter) const {
  const RawTables& raw = *raw_;
  Steals steals(raw);
  if (rank_merges_) {
    // tiktoken: every split of a token into two tokens is a merge ranked
    // by the whole token's id (bytes that several ids share merge into the
    // lowest of them: the splits are of that one).
    for (const TokenSplit& s : splits.splits) {
      const std::string_view t = raw.Token(s.token);
      steals.Add(s.left, s.right, static_cast<unsigned char>(t[s.at - 1]), static_cast<unsigned char>(t[s.at]),
                 s.token);
    }
  } else {
    for (size_t i = 0; i < pairs_->capacity(); ++i) {
      const PairIndex::Slot& s = pairs_->slots()[i];
      if (s.left != PairIndex::kEmpty && s.merged < raw.count && s.right < raw.count && s.left < raw.count)
        steals.Add(raw, s.left, s.right, s.rank);
    }
  }
  CharFold fold;
  std::string bytes;
  for (char32_t cp = 0x80; cp < 0x10000; ++cp) {
    if (cp >= 0xD800 && cp < 0xE000) continue;
    bytes.clear();
    utf8::append(bytes, cp);
    // The character's BPE alone, in place: lowest rank first, leftmost on ties.
    uint32_t start[3], id[3];
    size_t n = bytes.size();
    for (size_t k = 0; k < n; ++k) {
      start[k] = static_cast<uint32_t>(k);
      id[k] = byte_id_[static_cast<unsigned char>(bytes[k])];
    }
    bool folds = true;
    uint32_t last_rank = 0;
    while (folds && n > 1) {
      size_t best = n;
      uint32_t best_rank = CharFold::kNone, best_merged = 0, r, m;
      for (size_t k = 0; k + 1 < n; ++k) {
        const uint32_t end = k + 2 < n ? start[k + 2] : static_cast<uint32_t>(bytes.size());
        // The filter answers most pairs that do not merge from L2, before a
        // probe of the multi-MB tables.
        if ((filter == nullptr || filter->MayMerge(id[k], id[k + 1])) &&
            PairRank(bytes, start[k], id[k], id[k + 1], end, &r, &m) && r < best_rank) {
          best = k;
          best_rank = r;
          best_merged = m;
        }
      }
      // Stuck above one symbol, or a neighbour could merge first.
      folds = best < n && best_merged < raw.count && best_rank < steals.from_left[id[0]] &&
              best_rank < steals.from_right[id[n - 1]];
      if (!folds) break;
      id[best] = best_merged;
      for (size_t k = best + 1; k + 1 < n; ++k) {
        start[k] = start[k + 1];
        id[k] = id[k + 1];
      }
      --n;
      last_rank = best_rank;
    }
    if (!folds || id[0] >= raw.count || raw.Token(id[0]) != bytes) continue;
    // T must not merge with a neighbour below the rank that made it.
    if (steals.from_left[id[0]] <= last_rank || steals.from_right[id[0]] <= last_rank) continue;
    fold.Add(cp, id[0]);
  }
  fold.Index();
  return fold;
}

}  // namespace mtok
