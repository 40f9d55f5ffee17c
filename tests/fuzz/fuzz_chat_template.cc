// libFuzzer target: the native chat template engine and its JSON reader.
// The input is "template \0 messages_json \0 options_json" (missing parts
// get a small valid conversation). A render either fails with a non-empty
// message that is not an internal error, or returns valid UTF-8. Every
// input is also read as JSON on its own: what parses must write back
// (json.dumps style) and parse again to an equal value.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "chat/apply_chat_template.h"
#include "chat/json.h"
#include "common/utf8.h"

namespace {

constexpr std::string_view kMessages =
    R"([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi \u00e9"},)"
    R"( {"role": "assistant", "content": "Hello", "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]},)"
    R"( {"role": "tool", "content": "42"}, {"role": "user", "content": ["x", {"type": "text", "text": "y"}]}])";
constexpr std::string_view kOptions =
    R"({"add_generation_prompt": true, "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}]})";

void Abort(const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
  std::abort();
}

void CheckJsonRoundTrip(std::string_view text) {
  mtok::chat::Value v;
  std::string error;
  if (!mtok::chat::ReadJson(text, &v, &error)) {
    if (error.empty()) Abort("ReadJson", "failed without a message");
    return;
  }
  mtok::chat::JsonDumpOptions o;
  o.item_separator = ", ";
  std::string dumped = mtok::chat::DumpJson(v, o);
  mtok::chat::Value again;
  if (!mtok::chat::ReadJson(dumped, &again, &error)) Abort("ReadJson of DumpJson output", error);
  if (!mtok::chat::Equal(v, again)) Abort("JSON round trip changed the value", dumped);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  CheckJsonRoundTrip(input);
  size_t a = input.find('\0');
  std::string_view tmpl = input.substr(0, a);
  std::string_view messages = kMessages, options = kOptions;
  if (a != std::string_view::npos) {
    std::string_view rest = input.substr(a + 1);
    size_t b = rest.find('\0');
    messages = rest.substr(0, b);
    options = b == std::string_view::npos ? std::string_view() : rest.substr(b + 1);
  }
  mtok::chat::RenderSettings settings;
  settings.limits.max_steps = 200000;
  settings.limits.max_loop_iterations = 100000;
  settings.limits.max_sequence_length = 1 << 20;
  settings.clock = [] { return std::tm{}; };
  std::string out;
  mtok::Status st = mtok::chat::ApplyChatTemplate(tmpl, messages, options, "<s>", "</s>", settings, &out);
  if (!st.ok()) {
    if (st.message().empty() || st.kind() == mtok::ErrorKind::kInternal) Abort("ApplyChatTemplate", st.message());
    return 0;
  }
  size_t bad;
  if (!mtok::utf8::validate(out, &bad)) Abort("render is not valid UTF-8", std::to_string(bad));
  return 0;
}
