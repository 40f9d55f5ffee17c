// One long segment encoded on several threads: cut where its route's
// pre-tokenizer always splits (IdsRoute::AlwaysSplitsAt), the parts encoded
// on the shared pool (each thread with its own caches), the ids joined in
// order. The same ids as one Encode of the whole segment. A segment not yet
// normalized may have each part normalized on its thread as well.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "fast_paths/ids_route.h"
#include "mtok/tokenizer.h"

namespace mtok {

// A part's normalized form, made on the part's thread: the part itself,
// or its form written to *scratch. Only for a normalizer whose form of a
// text cut after a line break is its parts' forms joined
// (Normalizer::FormSplitsAfterLineBreak).
using PartForm = std::function<std::string_view(std::string_view part, std::string* scratch)>;

enum class SplitResult {
  kNotSplit,     // not worth it (IdsRoute::SplitPays), or no cut found
  kEncoded,      // the segment's ids appended
  kCutsChanged,  // with `form`: the normalized text no longer always splits at a cut
};

// Appends the ids of `segment` (as route.Encode does) using up to
// `threads` threads; unless it returns kEncoded nothing is appended and
// the caller encodes the segment. With `form`, the segment is text before
// normalization: each part is encoded in its form, and the ids are those
// of the whole segment's form.
SplitResult EncodeSplit(const IdsRoute& route, std::string_view segment, bool at_input_start, int threads,
                        std::vector<uint32_t>* ids, const PartForm* form = nullptr);

}  // namespace mtok
