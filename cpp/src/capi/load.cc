// Loading and freeing tokenizers.
#include <memory>
#include <new>

#include "capi/errors.h"
#include "capi/handles.h"
#include "mtok/buffer.h"

namespace mtok::capi {
namespace {

int LoadBytes(std::shared_ptr<const Buffer> bytes, mtok_tokenizer** out) {
  std::unique_ptr<mtok_tokenizer> handle(new mtok_tokenizer);
  MTOK_RETURN_IF_C_ERROR(Check(Tokenizer::Load(std::move(bytes), &handle->tok)));
  *out = handle.release();
  return MTOK_OK;
}

}  // namespace
}  // namespace mtok::capi

using namespace mtok::capi;

extern "C" {

int mtok_load_file(const char* path, mtok_tokenizer** out) {
  constexpr const char* fn = "mtok_load_file";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(path);
    MTOK_CAPI_REQUIRE(out);
    std::shared_ptr<const mtok::Buffer> bytes;
    // Only opening, reading and mapping fail here: those are I/O errors.
    const mtok::Status mapped = mtok::Buffer::MapFile(path, &bytes);
    if (!mapped.ok()) return Fail(MTOK_E_IO, mapped.message());
    return LoadBytes(std::move(bytes), out);
  });
}

int mtok_load_buffer(const void* data, size_t size, mtok_tokenizer** out) {
  constexpr const char* fn = "mtok_load_buffer";
  return Guard(fn, [&] {
    if (data == nullptr && size != 0) return NullArgument(fn, "data");
    MTOK_CAPI_REQUIRE(out);
    return LoadBytes(mtok::Buffer::Copy(data, size), out);
  });
}

void mtok_free(mtok_tokenizer* tok) { delete tok; }

}  // extern "C"
