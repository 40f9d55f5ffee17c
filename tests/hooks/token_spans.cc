// Test hooks for models/bpe/token_spans: the points of a piece where no
// token of a given vocab can lie across, for a brute-force check in pytest.
#include <nanobind/nanobind.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <vector>

#include "models/bpe/raw_tables.h"
#include "models/bpe/token_spans.h"

namespace nb = nanobind;

void bind_testing_token_spans(nb::module_& m) {
  // Every p in (0, len(piece)) at which TokenSpans::MaySpan is false, for
  // a vocab given as the raw bytes of its tokens. `broken_tail` adds a last
  // token whose offsets run backwards (as a damaged file's might): the
  // tables are then read token by token, not as one run of bytes.
  m.def("token_span_cuts", [](const std::vector<nb::bytes>& tokens, nb::bytes piece, bool broken_tail) {
    mtok::RawTables raw;
    for (const nb::bytes& t : tokens) {
      raw.owned_offsets.push_back(static_cast<uint32_t>(raw.owned_bytes.size()));
      raw.owned_bytes.append(t.c_str(), t.size());
    }
    raw.owned_offsets.push_back(static_cast<uint32_t>(raw.owned_bytes.size()));
    if (broken_tail) raw.owned_offsets.push_back(0);
    raw.offsets = raw.owned_offsets.data();
    raw.bytes = raw.owned_bytes.data();
    raw.bytes_size = static_cast<uint32_t>(raw.owned_bytes.size());
    raw.count = static_cast<uint32_t>(tokens.size() + (broken_tail ? 1 : 0));
    const mtok::TokenSpans spans = mtok::TokenSpans::Build(raw);
    const std::string_view s(piece.c_str(), piece.size());
    std::vector<size_t> cuts;
    for (size_t p = 1; p < s.size(); ++p) {
      if (!spans.MaySpan(s, p)) cuts.push_back(p);
    }
    return cuts;
  }, nb::arg("tokens"), nb::arg("piece"), nb::arg("broken_tail") = false);
}
