// Helpers for normalizers that rewrite text code point by code point.
#pragma once
#include <string>
#include <vector>

#include "common/utf8.h"
#include "pipeline.h"

namespace mtok {

// Decoded view of a piece: code points and the byte offset where each starts.
struct DecodedText {
  std::u32string cps;
  std::vector<uint32_t> starts;  // size cps.size() + 1
};

DecodedText DecodePiece(const Piece& p);

// Rebuilds p from `out` code points, where src[i] is the input code point
// index that out[i] came from (alignment follows it).
void RebuildPiece(Piece* p, const DecodedText& in, const std::u32string& out,
                  const std::vector<uint32_t>& src);

// Calls fn(cp, &out) for each code point; fn appends the replacement (zero
// or more code points). Rewrites p only if something changed.
template <typename Fn>
void MapCodePoints(Piece* p, Fn fn) {
  DecodedText in = DecodePiece(*p);
  std::u32string out;
  std::vector<uint32_t> src;
  out.reserve(in.cps.size());
  src.reserve(in.cps.size());
  for (uint32_t i = 0; i < in.cps.size(); ++i) {
    size_t before = out.size();
    fn(in.cps[i], &out);
    src.insert(src.end(), out.size() - before, i);
  }
  if (out == in.cps) return;
  RebuildPiece(p, in, out, src);
}

}  // namespace mtok
