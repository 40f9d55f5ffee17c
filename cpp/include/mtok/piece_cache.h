// The bound on the pre-token -> ids caches of the encoders' fast paths.
// Each thread that encodes with a tokenizer keeps its own cache (up to
// four tokenizers' per thread), each at most this many bytes: its tables
// grow with the distinct pre-tokens it sees, up to the bound, and then
// replace older entries. The default is 64 MB; MTOK_CACHE_MB (whole MB)
// sets it for the process, SetPieceCacheBound at run time (a thread's
// cache is emptied and resized at its next encode). 0 turns caching off.
#pragma once
#include <cstddef>

namespace mtok {

// Bytes. Throws std::invalid_argument when MTOK_CACHE_MB is not a whole
// number of MB (0 to 1048576).
size_t PieceCacheBound();
void SetPieceCacheBound(size_t bytes);

}  // namespace mtok
