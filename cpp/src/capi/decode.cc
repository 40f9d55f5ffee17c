// Decoding, and streaming decode for generation loops (mtok::DecodeStream).
#include <memory>
#include <string>

#include "capi/errors.h"
#include "capi/handles.h"

using namespace mtok::capi;

extern "C" {

int mtok_decode(const mtok_tokenizer* tok, const uint32_t* ids, size_t n_ids, int skip_special_tokens,
                char** text, size_t* len) {
  constexpr const char* fn = "mtok_decode";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    if (ids == nullptr && n_ids != 0) return NullArgument(fn, "ids");
    MTOK_CAPI_REQUIRE(text);
    const std::string s = tok->tok->Decode(ids, n_ids, skip_special_tokens != 0);
    return ReturnString(s, text, len);
  });
}

int mtok_decode_stream_new(const mtok_tokenizer* tok, int skip_special_tokens, mtok_decode_stream** out) {
  constexpr const char* fn = "mtok_decode_stream_new";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(out);
    *out = new mtok_decode_stream{tok, mtok::DecodeStream(skip_special_tokens != 0)};
    return MTOK_OK;
  });
}

int mtok_decode_stream_step(mtok_decode_stream* s, uint32_t id, char** text, size_t* len) {
  constexpr const char* fn = "mtok_decode_stream_step";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(s);
    MTOK_CAPI_REQUIRE(text);
    bool has_text = false;
    std::string chunk;
    MTOK_RETURN_IF_C_ERROR(Check(s->stream.Step(*s->owner->tok, &id, 1, &has_text, &chunk)));
    if (has_text) return ReturnString(chunk, text, len);
    *text = nullptr;
    if (len != nullptr) *len = 0;
    return MTOK_OK;
  });
}

void mtok_decode_stream_free(mtok_decode_stream* s) { delete s; }

}  // extern "C"
