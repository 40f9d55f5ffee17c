// The extension trailer after MNN's sections (docs/format.md, "Extension
// trailer"): a table of tagged, bounds-checked sections.
#pragma once
#include <vector>

#include "format/loaded_file.h"

namespace mtok {

struct Trailer {
  std::vector<uint8_t> added_flags;  // per added token: bit0 single_word, bit1 normalized
  PostProcessor post;
  bool has_post = false;
  std::vector<std::pair<size_t, uint32_t>> post_ids;  // (file offset, id) of each special id in POST
  bool trim_offsets = false, trim_add_prefix_space = false;  // OFFS
};

// True when the reader is at the trailer's magic.
bool AtTrailer(const ByteReader& r);
Status ReadTrailer(ByteReader& r, LoadedFile* f, size_t added_count, Trailer* out);

}  // namespace mtok
