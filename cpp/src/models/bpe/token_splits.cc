#include "models/bpe/token_splits.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "common/sort_by_bytes.h"

namespace mtok {

namespace {

// A token that is a prefix (suffix) of the current one, and its length.
struct Part {
  std::string_view bytes;
  uint32_t id;
};

// The tokens (non-empty) in the order of their bytes read forwards, or
// backwards with `reversed` (equal bytes: lowest id first), with their
// bytes: the walks below then read the order's views in sequence, not the
// offsets table at random.
std::vector<Part> SortedByBytes(const RawTables& raw, bool reversed) {
  std::vector<Part> parts;
  parts.reserve(raw.count);
  for (uint32_t id = 0; id < raw.count; ++id) {
    const std::string_view t = raw.Token(id);
    if (!t.empty()) parts.push_back({t, id});
  }
  SortByBytes(&parts, [](const Part& p) { return p.bytes; }, [](const Part& a, const Part& b) { return a.id < b.id; },
              reversed);
  return parts;
}

// Calls f(token, parts) for each token in the order `order`, `parts` being the
// tokens that are a proper prefix of it (suffix, with `reversed`), shortest
// first. In that order the tokens a token extends come before it and every
// token in between extends them too: a stack of them, popped when the next
// token does not extend them, holds them all. A repeated key (equal bytes)
// is passed once, as its lowest id; *repeated is set. ahead(id) is called
// a few tokens before f, to prefetch what f reads (the tokens'
// bytes are prefetched here): in byte order every token is a cache miss.
template <typename F, typename Ahead>
void ForEachWithParts(const std::vector<Part>& order, bool reversed, bool* repeated, F f, Ahead ahead) {
  auto extends = [reversed](std::string_view p, std::string_view t) {
    return p.size() < t.size() && std::memcmp(p.data(), t.data() + (reversed ? t.size() - p.size() : 0),
                                              p.size()) == 0;
  };
  constexpr size_t kAhead = 8;
  std::vector<Part> stack;
  std::string_view last;
  for (size_t k = 0; k < order.size(); ++k) {
    if (k + kAhead < order.size()) {
      const Part& next = order[k + kAhead];
      __builtin_prefetch(next.bytes.data());
      ahead(next.id);
    }
    const Part& token = order[k];
    const std::string_view t = token.bytes;
    if (t == last) {
      *repeated = true;
      continue;
    }
    last = t;
    while (!stack.empty() && !extends(stack.back().bytes, t)) stack.pop_back();
    f(token, stack);
    stack.push_back(token);
  }
}

}  // namespace

RankSplits ComputeRankSplits(const RawTables& raw) {
  RankSplits out;
  bool repeated = false;
  // Each token's prefix tokens, as (length, id), shortest first.
  std::vector<uint32_t> begin(size_t{raw.count} + 1, 0), count(raw.count, 0);
  std::vector<std::pair<uint32_t, uint32_t>> prefixes;
  ForEachWithParts(
      SortedByBytes(raw, false), false, &repeated,
      [&](const Part& token, const std::vector<Part>& parts) {
        begin[token.id] = static_cast<uint32_t>(prefixes.size());
        count[token.id] = static_cast<uint32_t>(parts.size());
        for (const Part& p : parts) prefixes.emplace_back(static_cast<uint32_t>(p.bytes.size()), p.id);
      },
      [&](uint32_t id) {
        __builtin_prefetch(&begin[id], 1);
        __builtin_prefetch(&count[id], 1);
      });
  // A split is a prefix token and a suffix token whose lengths add up.
  ForEachWithParts(
      SortedByBytes(raw, true), true, &repeated,
      [&](const Part& token, const std::vector<Part>& parts) {
        const uint32_t id = token.id;
        if (parts.empty() || count[id] == 0) return;
        const uint32_t size = static_cast<uint32_t>(token.bytes.size());
        const auto* pre = prefixes.data() + begin[id];
        // Suffixes shortest first: their prefix lengths longest first.
        size_t j = count[id];
        for (const Part& s : parts) {
          const uint32_t at = size - static_cast<uint32_t>(s.bytes.size());
          while (j > 0 && pre[j - 1].first > at) --j;
          if (j == 0) break;
          if (pre[j - 1].first == at) out.splits.push_back({pre[j - 1].second, s.id, id, at});
        }
      },
      [&](uint32_t id) {
        __builtin_prefetch(&count[id]);
        __builtin_prefetch(&begin[id]);
      });
  out.ids_unique = !repeated;
  return out;
}

}  // namespace mtok
