// The extension trailer after MNN's sections (docs/format.md, "Extension
// trailer"): a table of tagged, bounds-checked sections.
#pragma once
#include <vector>

#include "format/section_readers.h"
#include "io/sections.h"

namespace mtok {

struct Trailer : SectionTable {
  uint64_t begin = 0;  // offset of the trailer's magic (= end of the body)
  std::vector<uint8_t> added_flags;  // per added token: bit0 single_word, bit1 normalized
  PostProcessor post;
  bool has_post = false;
  std::vector<std::pair<size_t, uint32_t>> post_ids;  // (file offset, id) of each special id in POST
  bool trim_offsets = false, trim_add_prefix_space = false;  // OFFS
  EncodeDefaults encode_defaults;                             // TRUN, PADS
};

// Finds the trailer through the end-of-file locator and checks its table.
// A file without a locator has no trailer (out->begin = file size).
Status ReadTrailerTable(const Buffer& bytes, FileComponents* f, Trailer* out);
// Reads the sections that describe the tokenizer (ATFL, POST, OFFS, TMPL,
// TRUN, PADS);
// acceleration sections are read by the model readers.
Status ReadTrailerSections(const Buffer& bytes, FileComponents* f, size_t added_count, Trailer* out);

}  // namespace mtok
