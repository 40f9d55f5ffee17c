// What the C API's opaque handles hold, and the copies of results into
// malloc'd buffers the caller frees with mtok_free_*.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mtok/decode_stream.h"
#include "mtok/mtok.h"
#include "mtok/tokenizer.h"

struct mtok_tokenizer {
  std::unique_ptr<mtok::Tokenizer> tok;
};

struct mtok_decode_stream {
  const mtok_tokenizer* owner;
  mtok::DecodeStream stream;
};

namespace mtok::capi {

// *text = a NUL-terminated malloc'd copy of s, *len = s.size() (len may be
// NULL). MTOK_E_NO_MEMORY when malloc fails.
int ReturnString(std::string_view s, char** text, size_t* len);
// *out = a malloc'd copy of ids (NULL when empty), *n = ids.size().
int ReturnIds(const std::vector<uint32_t>& ids, uint32_t** out, size_t* n);

}  // namespace mtok::capi
