// mtok_apply_chat_template: picks the file's template and its template
// variables as the Python package's Tokenizer.apply_chat_template does
// (mtok.chat.ChatTemplates.resolve, Tokenizer.special_tokens_map), then
// renders with the native engine (cpp/src/chat).
#include <string>
#include <string_view>

#include "capi/errors.h"
#include "capi/handles.h"
#include "chat/apply_chat_template.h"
#include "chat/json.h"
#include "chat/value.h"

namespace mtok::capi {
namespace {

using chat::Dict;
using chat::Value;

constexpr const char* fn = "mtok_apply_chat_template";

// Parses `text` (`what` names it) into *out; MTOK_E_JSON naming the problem.
int ReadJson(std::string_view text, const char* what, Value* out) {
  std::string error;
  if (!chat::ReadJson(text, out, &error)) return Fail(MTOK_E_JSON, std::string(fn) + ": " + what + ": " + error);
  return MTOK_OK;
}

// The file's chat metadata (extension section TMPL): named templates and
// the special token texts of its tokenizer_config.json.
struct ChatMeta {
  Dict named;     // name -> source
  Dict specials;  // bos_token, eos_token, unk_token, additional_special_tokens ...
};

int ReadMeta(const TokenizerInfo& info, ChatMeta* meta) {
  if (info.chat_json.empty()) return MTOK_OK;
  Value v;
  std::string error;
  if (!chat::ReadJson(info.chat_json, &v, &error) || !v.is_dict())
    return Fail(MTOK_E_FORMAT, "section TMPL: the chat metadata is not a JSON object: " + error);
  if (const Value* named = v.dict().Find(std::string_view("named_templates")); named && named->is_list_like()) {
    for (const Value& entry : named->list()) {
      const Value* name = entry.is_dict() ? entry.dict().Find(std::string_view("name")) : nullptr;
      const Value* source = entry.is_dict() ? entry.dict().Find(std::string_view("template")) : nullptr;
      if (!name || !source || !name->is_string() || !source->is_string())
        return Fail(MTOK_E_FORMAT, "section TMPL: a named template is not {\"name\": str, \"template\": str}");
      meta->named.Set(*name, *source);
    }
  }
  if (const Value* specials = v.dict().Find(std::string_view("special_tokens_map")); specials && specials->is_dict())
    meta->specials = specials->dict();
  return MTOK_OK;
}

// The template source to render, as ChatTemplates.resolve chooses it:
// `requested` (the "chat_template" option) is a template name when the file
// has named templates and it is one of them, else template source; without
// it, "tool_use" when tools are given and the file has it, else "default".
int ResolveTemplate(const TokenizerInfo& info, const ChatMeta& meta, const Value* requested, bool has_tools,
                    std::string* source) {
  if (requested != nullptr && !requested->is_string())
    return Fail(MTOK_E_INVALID_ARGUMENT, std::string(fn) + ": chat_template must be a template name or source, got " +
                                             chat::TypeName(*requested));
  if (meta.named.size() > 0) {
    const Value* picked = nullptr;
    if (requested != nullptr) {
      picked = meta.named.Find(std::string_view(requested->s()));
      if (picked == nullptr) picked = requested;  // inline source
    } else if (has_tools && (picked = meta.named.Find(std::string_view("tool_use"))) != nullptr) {
    } else if ((picked = meta.named.Find(std::string_view("default"))) == nullptr) {
      std::string names;
      for (const auto& kv : meta.named.items) names += (names.empty() ? "" : ", ") + kv.first.s();
      return Fail(MTOK_E_NOT_FOUND, std::string(fn) +
                                        ": the tokenizer has several chat templates and none is named 'default';"
                                        " pass {\"chat_template\": name} in options_json (names: " + names + ")");
    }
    *source = picked->s();
    return MTOK_OK;
  }
  if (requested != nullptr) {
    *source = requested->s();
  } else if (!info.chat_template.empty()) {
    *source = std::string(info.chat_template);
  } else {
    return Fail(MTOK_E_NOT_FOUND, std::string(fn) + ": the tokenizer has no chat template; pass its source as"
                                                    " {\"chat_template\": ...} in options_json");
  }
  return MTOK_OK;
}

// The options the engine gets: the file's special token texts (bos_token
// and eos_token from the file when its map lacks them), then the caller's
// options, which win; "chat_template" is the renderer's, not a variable.
std::string EngineOptions(const TokenizerInfo& info, const ChatMeta& meta, const Dict& options) {
  Dict merged = meta.specials;
  if (!info.bos_token.empty() && !merged.Find(std::string_view("bos_token")))
    merged.Set(Value::Str("bos_token"), Value::Str(std::string(info.bos_token)));
  if (!info.eos_token.empty() && !merged.Find(std::string_view("eos_token")))
    merged.Set(Value::Str("eos_token"), Value::Str(std::string(info.eos_token)));
  for (const auto& kv : options.items) {
    if (kv.first.s() != "chat_template") merged.Set(kv.first, kv.second);
  }
  chat::JsonDumpOptions compact;
  compact.item_separator = ",";
  compact.key_separator = ":";
  return chat::DumpJson(Value::MakeDict(std::move(merged)), compact);
}

int Apply(const mtok_tokenizer* tok, const char* messages_json, const char* options_json, char** text, size_t* len) {
  MTOK_CAPI_REQUIRE(tok);
  MTOK_CAPI_REQUIRE(messages_json);
  MTOK_CAPI_REQUIRE(text);
  const TokenizerInfo& info = tok->tok->info();
  // Bad JSON is told apart from a failing template: both inputs are read here first.
  Value messages, options = Value::MakeDict(Dict());
  MTOK_RETURN_IF_C_ERROR(ReadJson(messages_json, "messages_json", &messages));
  if (options_json != nullptr && *options_json != '\0') {
    MTOK_RETURN_IF_C_ERROR(ReadJson(options_json, "options_json", &options));
    if (!options.is_dict())
      return Fail(MTOK_E_INVALID_ARGUMENT, std::string(fn) + ": options_json must be a JSON object, got " +
                                               chat::TypeName(options));
  }
  ChatMeta meta;
  MTOK_RETURN_IF_C_ERROR(ReadMeta(info, &meta));
  const Value* tools = options.dict().Find(std::string_view("tools"));
  std::string source;
  MTOK_RETURN_IF_C_ERROR(ResolveTemplate(info, meta, options.dict().Find(std::string_view("chat_template")),
                                         tools != nullptr && !tools->is_none(), &source));
  std::string out;
  const Status st = chat::ApplyChatTemplate(source, messages_json, EngineOptions(info, meta, options.dict()),
                                            info.bos_token, info.eos_token, &out);
  // The engine's errors (invalid input, syntax, raise_exception, undefined
  // values, limits) are all the template's; its messages say which.
  if (!st.ok()) return Fail(st.kind() == ErrorKind::kInternal ? MTOK_E_INTERNAL : MTOK_E_TEMPLATE, st.message());
  return ReturnString(out, text, len);
}

}  // namespace
}  // namespace mtok::capi

extern "C" {

int mtok_apply_chat_template(const mtok_tokenizer* tok, const char* messages_json, const char* options_json,
                             char** text, size_t* len) {
  return mtok::capi::Guard(mtok::capi::fn, [&] { return mtok::capi::Apply(tok, messages_json, options_json, text, len); });
}

}  // extern "C"
