// The text header: "430 4\n", the counts line, the ids line.
#include <string>

#include "io/codes.h"
#include "format/read_header.h"

namespace mtok {
namespace {

// Reads the next line (without '\n') as a view; fails if there is no '\n'.
Status NextLine(ByteReader& r, std::string_view* line) {
  const char* begin = reinterpret_cast<const char*>(r.data() + r.pos());
  size_t left = r.remaining();
  // An empty buffer may have a null data pointer, which memchr must not see.
  const void* nl = left == 0 ? nullptr : std::memchr(begin, '\n', left);
  if (nl == nullptr) return r.Error("header line has no end of line");
  size_t n = static_cast<const char*>(nl) - begin;
  *line = std::string_view(begin, n);
  r.seek(r.pos() + n + 1);
  return Status::Ok();
}

// Splits a line of space-separated decimal integers (each < 2^32).
Status ParseInts(ByteReader& r, size_t line_at, std::string_view line, std::vector<uint32_t>* out) {
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == ' ') { ++i; continue; }
    uint64_t v = 0;
    size_t start = i;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
      v = v * 10 + (line[i] - '0');
      if (v > 0xFFFFFFFFull) return r.ErrorAt(line_at + start, "number too large");
      ++i;
    }
    if (i == start || (i < line.size() && line[i] != ' '))
      return r.ErrorAt(line_at + i, "expected a decimal number");
    out->push_back(static_cast<uint32_t>(v));
  }
  return Status::Ok();
}

}  // namespace

Status ReadHeader(ByteReader& r, int* type, TokenizerInfo* info) {
  r.set_section("header");
  std::string_view line;
  MTOK_RETURN_IF_ERROR(NextLine(r, &line));
  std::vector<uint32_t> magic;
  MTOK_RETURN_IF_ERROR(ParseInts(r, 0, line, &magic));
  if (magic.size() != 2 || magic[0] != codes::kMagic)
    return r.ErrorAt(0, "not an MNN tokenizer file (first line must be \"430 <type>\")");
  *type = static_cast<int>(magic[1]);
  if (*type != codes::kPipelineType) return Status::Ok();  // a legacy .txt; caller decides

  size_t counts_at = r.pos();
  MTOK_RETURN_IF_ERROR(NextLine(r, &line));
  std::vector<uint32_t> counts;
  MTOK_RETURN_IF_ERROR(ParseInts(r, counts_at, line, &counts));
  if (counts.size() != 3) return r.ErrorAt(counts_at, "counts line must hold 3 numbers");
  size_t ids_at = r.pos();
  MTOK_RETURN_IF_ERROR(NextLine(r, &line));
  std::vector<uint32_t> ids;
  MTOK_RETURN_IF_ERROR(ParseInts(r, ids_at, line, &ids));
  uint64_t total = uint64_t(counts[0]) + counts[1] + counts[2];
  if (ids.size() != total)
    return r.ErrorAt(ids_at, "ids line holds " + std::to_string(ids.size()) + " ids, counts say " +
                                 std::to_string(total));
  info->special_ids.assign(ids.begin(), ids.begin() + counts[0]);
  info->stop_ids.assign(ids.begin() + counts[0], ids.begin() + counts[0] + counts[1]);
  info->prefix_ids.assign(ids.begin() + counts[0] + counts[1], ids.end());
  return Status::Ok();
}

}  // namespace mtok
