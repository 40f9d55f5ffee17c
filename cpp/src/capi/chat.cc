// Chat templates: renders the template stored in the file with the native
// engine (cpp/src/chat).
#include <string>
#include <string_view>

#include "capi/chat_pending.h"
#include "capi/errors.h"
#include "capi/handles.h"

using namespace mtok::capi;

extern "C" {

int mtok_apply_chat_template(const mtok_tokenizer* tok, const char* messages_json, const char* options_json,
                             char** text, size_t* len) {
  constexpr const char* fn = "mtok_apply_chat_template";
  return Guard(fn, [&] {
    MTOK_CAPI_REQUIRE(tok);
    MTOK_CAPI_REQUIRE(messages_json);
    MTOK_CAPI_REQUIRE(text);
    const mtok::TokenizerInfo& info = tok->tok->info();
    std::string out;
    MTOK_RETURN_IF_C_ERROR(Check(mtok::chat::ApplyChatTemplate(info.chat_template, messages_json,
                                                               options_json ? options_json : "",
                                                               info.bos_token, info.eos_token, &out)));
    return ReturnString(out, text, len);
  });
}

}  // extern "C"
