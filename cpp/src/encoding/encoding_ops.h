// Operations on whole encodings, with HF tokenizers' semantics: truncation
// (with stride and overflowing pieces), merging sequences, padding.
#pragma once
#include <vector>

#include "mtok/encoding.h"
#include "mtok/status.h"

namespace mtok {

// HF Encoding::truncate: keeps max_len tokens, the rest become overflowing
// pieces that overlap by `stride`. Requires stride < max_len (max_len > 0).
void Truncate(Encoding* e, size_t max_len, size_t stride, Side direction);

// HF truncate_encodings: fits one or two sequences into p.max_length.
Status TruncateEncodings(Encoding* a, Encoding* b, const TruncationParams& p);

// HF Encoding::merge_with (offsets do not grow): appends `pair`, combining
// the overflowing pieces of both sides.
void MergeWith(Encoding* self, const Encoding& pair);

// PadTarget(longest, p): in the public mtok/encoding.h.
// HF Encoding::pad: pads e (and its overflowing pieces) to `target`.
void Pad(Encoding* e, size_t target, const PaddingParams& p);
// HF pad_encodings over a batch.
void PadBatch(std::vector<Encoding>* batch, const PaddingParams& p);

// Token strings, word ids and offsets of a special token with these ids.
void AppendSpecial(Encoding* e, uint32_t id, const std::string& token, uint32_t type_id);

}  // namespace mtok
