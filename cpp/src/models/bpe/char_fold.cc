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

void CharFold::AddInContext(char32_t cp, uint32_t id, const std::vector<std::string>& left,
                            const std::vector<std::string>& right) {
  auto [at, added] = lists_.try_emplace({left, right}, static_cast<uint16_t>(neighbours_.size()));
  if (added) {
    if (neighbours_.size() + left.size() + right.size() > UINT16_MAX + size_t{1}) {
      lists_.erase(at);
      return;  // it starts as bytes: the same ids
    }
    for (const auto* side : {&left, &right}) {
      for (const std::string& b : *side)
        neighbours_.push_back({LoadLeBytes(b.data(), b.size()), static_cast<uint32_t>(b.size()), 0});
    }
  }
  context_bits_[cp >> 6] |= uint64_t{1} << (cp & 63);
  in_context_.push_back({id, at->second, static_cast<uint8_t>(left.size()), static_cast<uint8_t>(right.size())});
}

void CharFold::Index() {
  lists_.clear();
  uint32_t seen = 0, seen_in_context = 0;
  for (size_t k = 0; k < kWords; ++k) {
    before_[k] = seen;
    seen += static_cast<uint32_t>(BitCount(bits_[k]));
    context_before_[k] = seen_in_context;
    seen_in_context += static_cast<uint32_t>(BitCount(context_bits_[k]));
  }
}

std::string CharFold::Payload() const {
  const uint32_t head[2] = {static_cast<uint32_t>(ids_.size()), 0};
  std::string out(reinterpret_cast<const char*>(head), sizeof(head));
  out.append(reinterpret_cast<const char*>(bits_), sizeof(bits_));
  if (!ids_.empty()) out.append(reinterpret_cast<const char*>(ids_.data()), ids_.size() * sizeof(uint32_t));
  return out;
}

std::string CharFold::ContextPayload() const {
  if (in_context_.empty()) return {};
  const uint32_t head[2] = {static_cast<uint32_t>(in_context_.size()), static_cast<uint32_t>(neighbours_.size())};
  std::string out(reinterpret_cast<const char*>(head), sizeof(head));
  out.append(reinterpret_cast<const char*>(context_bits_), sizeof(context_bits_));
  out.append(reinterpret_cast<const char*>(in_context_.data()), in_context_.size() * sizeof(Context));
  out.append(reinterpret_cast<const char*>(neighbours_.data()), neighbours_.size() * sizeof(Neighbour));
  return out;
}

Status CharFold::CheckIds(const uint64_t* bits, size_t count, const std::function<uint32_t(size_t)>& id_of,
                          const RawTables& raw, const char* what) {
  size_t marked = 0;
  for (size_t k = 0; k < kWords; ++k) marked += BitCount(bits[k]);
  if (marked != count)
    return FormatError(std::string("extension section ") + what + ": the bitmap does not mark " +
                       std::to_string(count) + " characters");
  // Each entry must be its character's token: a wrong id would change
  // results silently, so it is refused here rather than used. The marked
  // characters alone are visited (a load checks thousands of them).
  std::string bytes;
  size_t k = 0;
  for (size_t w = 0; w < kWords; ++w) {
    for (uint64_t rest = bits[w]; rest != 0; rest &= rest - 1, ++k) {
      const auto cp = static_cast<char32_t>(64 * w + static_cast<size_t>(__builtin_ctzll(rest)));
      bytes.clear();
      utf8::append(bytes, cp);
      if (cp < 0x80 || (cp >= 0xD800 && cp < 0xE000) || raw.Token(id_of(k)) != bytes)
        return FormatError(std::string("extension section ") + what + ": entry " + std::to_string(k) +
                           " is not the token of its character");
    }
  }
  return Status::Ok();
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
  MTOK_RETURN_IF_ERROR(CheckIds(f.bits_, count, [&f](size_t k) { return f.ids_[k]; }, raw, "BFLD"));
  f.Index();
  *out = std::move(f);
  return Status::Ok();
}

Status CharFold::ParseContext(std::string_view payload, const RawTables& raw, CharFold* out) {
  auto fail = [](const std::string& what) { return FormatError("extension section BFLC: " + what); };
  constexpr size_t kHead = 8 + sizeof(context_bits_);
  if (payload.size() < kHead) return fail("too short");
  uint32_t count, neighbours;
  std::memcpy(&count, payload.data(), 4);
  std::memcpy(&neighbours, payload.data() + 4, 4);
  if (payload.size() != kHead + uint64_t{count} * sizeof(Context) + uint64_t{neighbours} * sizeof(Neighbour))
    return fail("size does not match its " + std::to_string(count) + " entries and " + std::to_string(neighbours) +
                " neighbours");
  CharFold& f = *out;
  std::memcpy(f.context_bits_, payload.data() + 8, sizeof(context_bits_));
  for (size_t k = 0; k < kWords; ++k) {
    if (f.context_bits_[k] & f.bits_[k]) return fail("a character is also in BFLD");
  }
  f.in_context_.resize(count);
  f.neighbours_.resize(neighbours);
  if (count > 0) std::memcpy(f.in_context_.data(), payload.data() + kHead, count * sizeof(Context));
  if (neighbours > 0)
    std::memcpy(f.neighbours_.data(), payload.data() + kHead + count * sizeof(Context), neighbours * sizeof(Neighbour));
  MTOK_RETURN_IF_ERROR(CheckIds(f.context_bits_, count, [&f](size_t k) { return f.in_context_[k].id; }, raw, "BFLC"));
  for (size_t k = 0; k < count; ++k) {
    const Context& c = f.in_context_[k];
    if (c.left > kMaxNeighbours || c.right > kMaxNeighbours || size_t{c.first} + c.left + c.right > neighbours)
      return fail("entry " + std::to_string(k) + " has neighbours out of range");
  }
  for (size_t k = 0; k < neighbours; ++k) {
    const Neighbour& n = f.neighbours_[k];
    if (n.len == 0 || n.len > kMaxNeighbourBytes || n.zero != 0 || (n.len < 8 && (n.bytes >> (8 * n.len)) != 0))
      return fail("neighbour " + std::to_string(k) + " is not 1 to 8 bytes");
  }
  f.Index();
  return Status::Ok();
}

namespace {

// The merges that can take a symbol from outside a character, by that
// symbol: left_of[e], the merges (x, e) with x ending at a character
// boundary (its last byte below 0xC0, never a lead byte); right_of[e], the
// merges (e, y) with y starting at one (ASCII or a lead byte, never a
// continuation). Each as (rank, the neighbour token).
struct Steals {
  using Takers = std::vector<std::pair<uint32_t, uint32_t>>;
  std::vector<Takers> left_of, right_of;

  explicit Steals(const RawTables& raw) : left_of(raw.count), right_of(raw.count) {}

  void Add(const RawTables& raw, uint32_t left, uint32_t right, uint32_t rank) {
    const std::string_view a = raw.Token(left), b = raw.Token(right);
    if (a.empty() || b.empty()) return;
    Add(left, right, static_cast<unsigned char>(a.back()), static_cast<unsigned char>(b[0]), rank);
  }
  // `last`: left's last byte; `first`: right's first.
  void Add(uint32_t left, uint32_t right, unsigned char last, unsigned char first, uint32_t rank) {
    if (last < 0xC0) left_of[right].emplace_back(rank, left);
    if (first < 0x80 || first >= 0xC2) right_of[left].emplace_back(rank, right);
  }
};

// Adds the bytes of the takers ranked below `below` to `into` (once each).
void AddTakers(const RawTables& raw, const Steals::Takers& takers, uint64_t below, std::vector<std::string>* into) {
  for (const auto& [rank, id] : takers) {
    if (rank >= below) continue;
    const std::string bytes(raw.Token(id));
    if (std::find(into->begin(), into->end(), bytes) == into->end()) into->push_back(bytes);
  }
}

bool Storable(const std::vector<std::string>& side) {
  return side.size() <= CharFold::kMaxNeighbours &&
         std::all_of(side.begin(), side.end(),
                     [](const std::string& b) { return !b.empty() && b.size() <= CharFold::kMaxNeighbourBytes; });
}

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
  std::vector<std::string> left, right;  // the neighbours that may take a symbol first
  for (char32_t cp = 0x80; cp < 0x10000; ++cp) {
    if (cp >= 0xD800 && cp < 0xE000) continue;
    bytes.clear();
    utf8::append(bytes, cp);
    left.clear();
    right.clear();
    // The character's BPE alone, in place: lowest rank first, leftmost on ties.
    uint32_t start[3], id[3];
    size_t n = bytes.size();
    for (size_t k = 0; k < n; ++k) {
      start[k] = static_cast<uint32_t>(k);
      id[k] = byte_id_[static_cast<unsigned char>(bytes[k])];
    }
    bool assembles = true;
    uint32_t last_rank = 0;
    while (n > 1) {
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
      assembles = best < n && best_merged < raw.count;  // else stuck above one symbol
      if (!assembles) break;
      // Neighbours that could merge with the first or last symbol first
      // (a tie counts: the leftmost of equal ranks merges first).
      AddTakers(raw, steals.left_of[id[0]], uint64_t{best_rank} + 1, &left);
      AddTakers(raw, steals.right_of[id[n - 1]], uint64_t{best_rank} + 1, &right);
      id[best] = best_merged;
      for (size_t k = best + 1; k + 1 < n; ++k) {
        start[k] = start[k + 1];
        id[k] = id[k + 1];
      }
      --n;
      last_rank = best_rank;
    }
    if (!assembles || id[0] >= raw.count || raw.Token(id[0]) != bytes) continue;
    // Nor may T merge with a neighbour below the rank that made it.
    AddTakers(raw, steals.left_of[id[0]], uint64_t{last_rank} + 1, &left);
    AddTakers(raw, steals.right_of[id[0]], uint64_t{last_rank} + 1, &right);
    if (left.empty() && right.empty()) {
      fold.Add(cp, id[0]);
    } else if (Storable(left) && Storable(right)) {
      std::sort(left.begin(), left.end());
      std::sort(right.begin(), right.end());
      fold.AddInContext(cp, id[0], left, right);
    }
  }
  fold.Index();
  return fold;
}

}  // namespace mtok
