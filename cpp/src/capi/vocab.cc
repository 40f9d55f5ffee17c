// The vocabulary and the special tokens an engine needs: token <-> id,
// sizes, BOS / EOS / stop ids.
#include <string>
#include <string_view>
#include <vector>

#include "capi/errors.h"
#include "capi/handles.h"

namespace mtok::capi {
namespace {

// The id of the file's `which` token text ("BOS", "EOS").
int SpecialId(const mtok_tokenizer* tok, std::string_view text, const char* which, uint32_t* id) {
  if (text.empty()) return Fail(MTOK_E_NOT_FOUND, std::string("the tokenizer sets no ") + which + " token");
  if (!tok->tok->TokenToId(text, id))
    return Fail(MTOK_E_NOT_FOUND,
                std::string("the tokenizer's ") + which + " token '" + std::string(text) + "' is no token of its vocabulary");
  return MTOK_OK;
}

}  // namespace
}  // namespace mtok::capi

using namespace mtok::capi;

extern "C" {

int mtok_token_to_id(const mtok_tokenizer* tok, const char* token, size_t len, uint32_t* id) {
  constexpr const char* fn = "mtok_token_to_id";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    if (token == nullptr && len != 0) return NullArgument(fn, "token");
    MTOK_CAPI_REQUIRE(id);
    const std::string_view view(len ? token : "", len);
    if (!tok->tok->TokenToId(view, id))
      return Fail(MTOK_E_NOT_FOUND, "mtok_token_to_id: no token '" + std::string(view) + "'");
    return MTOK_OK;
  });
}

int mtok_id_to_token(const mtok_tokenizer* tok, uint32_t id, char** token, size_t* len) {
  constexpr const char* fn = "mtok_id_to_token";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(token);
    std::string s;
    if (!tok->tok->IdToToken(id, &s))
      return Fail(MTOK_E_NOT_FOUND, "mtok_id_to_token: no token has id " + std::to_string(id));
    return ReturnString(s, token, len);
  });
}

int mtok_vocab_size(const mtok_tokenizer* tok, int with_added_tokens, size_t* size) {
  constexpr const char* fn = "mtok_vocab_size";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(size);
    *size = tok->tok->VocabSize(with_added_tokens != 0);
    return MTOK_OK;
  });
}

int mtok_bos_id(const mtok_tokenizer* tok, uint32_t* id) {
  constexpr const char* fn = "mtok_bos_id";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(id);
    return SpecialId(tok, tok->tok->info().bos_token, "BOS", id);
  });
}

int mtok_eos_id(const mtok_tokenizer* tok, uint32_t* id) {
  constexpr const char* fn = "mtok_eos_id";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(id);
    return SpecialId(tok, tok->tok->info().eos_token, "EOS", id);
  });
}

int mtok_stop_ids(const mtok_tokenizer* tok, uint32_t** ids, size_t* n_ids) {
  constexpr const char* fn = "mtok_stop_ids";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(ids);
    MTOK_CAPI_REQUIRE(n_ids);
    return ReturnIds(tok->tok->info().stop_ids, ids, n_ids);
  });
}

int mtok_is_special(const mtok_tokenizer* tok, uint32_t id, int* special) {
  constexpr const char* fn = "mtok_is_special";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(special);
    *special = tok->tok->IsSpecial(id) ? 1 : 0;
    return MTOK_OK;
  });
}

}  // extern "C"
