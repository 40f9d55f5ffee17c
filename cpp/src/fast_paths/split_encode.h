// One long segment encoded on several threads: cut where its route's
// pre-tokenizer always splits (IdsRoute::AlwaysSplitsAt), the parts encoded
// on the shared pool (each thread with its own caches), the ids joined in
// order. The same ids as one Encode of the whole segment.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

#include "fast_paths/ids_route.h"
#include "mtok/tokenizer.h"

namespace mtok {

// Appends the ids of `segment` (as route.Encode does) using up to
// `threads` threads; false, with nothing appended, when the segment is
// shorter than EncodeOptions::kSplitMinBytes, threads < 2, or no cut was
// found (then the caller encodes it).
bool EncodeSplit(const IdsRoute& route, std::string_view segment, bool at_input_start, int threads,
                 std::vector<uint32_t>* ids);

}  // namespace mtok
