#include "models/bpe/token_splits.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "common/sort_by_bytes.h"

namespace mtok {

namespace {

// Ids of the tokens (non-empty) in the order of their bytes read forwards,
// or backwards with `reversed` (equal bytes: lowest id first).
std::vector<uint32_t> SortedByBytes(const RawTables& raw, bool reversed) {
  std::vector<uint32_t> ids;
  ids.reserve(raw.count);
  for (uint32_t id = 0; id < raw.count; ++id) {
    if (!raw.Token(id).empty()) ids.push_back(id);
  }
  SortByBytes(&ids, [&raw](uint32_t id) { return raw.Token(id); }, [](uint32_t a, uint32_t b) { return a < b; },
              reversed);
  return ids;
}

// A token that is a prefix (suffix) of the current one, and its length.
struct Part {
  std::string_view bytes;
  uint32_t id;
};

// Calls f(id, parts) for each token in the order `order`, `parts` being the
// tokens that are a proper prefix of it (suffix, with `reversed`), shortest
// first. In that order the tokens a token extends come before it and every
// token in between extends them too: a stack of them, popped when the next
// token does not extend them, holds them all. A repeated key (equal bytes)
// is passed once, as its lowest id; *repeated is set.
template <typename F>
void ForEachWithParts(const RawTables& raw, const std::vector<uint32_t>& order, bool reversed, bool* repeated,
                      F f) {
  auto extends = [reversed](std::string_view p, std::string_view t) {
    return p.size() < t.size() && std::memcmp(p.data(), t.data() + (reversed ? t.size() - p.size() : 0),
                                              p.size()) == 0;
  };
  std::vector<Part> stack;
  std::string_view last;
  for (uint32_t id : order) {
    const std::string_view t = raw.Token(id);
    if (t == last) {
      *repeated = true;
      continue;
    }
    last = t;
    while (!stack.empty() && !extends(stack.back().bytes, t)) stack.pop_back();
    f(id, stack);
    stack.push_back({t, id});
  }
}

}  // namespace

RankSplits ComputeRankSplits(const RawTables& raw) {
  RankSplits out;
  bool repeated = false;
  // Each token's prefix tokens, as (length, id), shortest first.
  std::vector<uint32_t> begin(size_t{raw.count} + 1, 0), count(raw.count, 0);
  std::vector<std::pair<uint32_t, uint32_t>> prefixes;
  ForEachWithParts(raw, SortedByBytes(raw, false), false, &repeated, [&](uint32_t id, const std::vector<Part>& parts) {
    begin[id] = static_cast<uint32_t>(prefixes.size());
    count[id] = static_cast<uint32_t>(parts.size());
    for (const Part& p : parts) prefixes.emplace_back(static_cast<uint32_t>(p.bytes.size()), p.id);
  });
  // A split is a prefix token and a suffix token whose lengths add up.
  ForEachWithParts(raw, SortedByBytes(raw, true), true, &repeated, [&](uint32_t id, const std::vector<Part>& parts) {
    if (parts.empty() || count[id] == 0) return;
    const uint32_t size = static_cast<uint32_t>(raw.Token(id).size());
    const auto* pre = prefixes.data() + begin[id];
    // Suffixes shortest first: their prefix lengths longest first.
    size_t j = count[id];
    for (const Part& s : parts) {
      const uint32_t at = size - static_cast<uint32_t>(s.bytes.size());
      while (j > 0 && pre[j - 1].first > at) --j;
      if (j == 0) break;
      if (pre[j - 1].first == at) out.splits.push_back({pre[j - 1].second, s.id, id, at});
    }
  });
  out.ids_unique = !repeated;
  return out;
}

}  // namespace mtok
