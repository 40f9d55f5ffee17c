// mtok::chat::ApplyChatTemplate: renders a chat template natively, with the
// same output as the Python package's Tokenizer.apply_chat_template /
// mtok.chat.ChatTemplates.render (jinja2 in transformers' sandboxed
// environment) for the same inputs.
#pragma once
#include <string>
#include <string_view>

#include "chat/interpreter.h"
#include "mtok/status.h"

namespace mtok::chat {

// template_source: the jinja template text (UTF-8).
// messages_json:   a JSON array of message objects ({"role": ..., "content": ...}).
// options_json:    "" or a JSON object with any of add_generation_prompt (bool),
//                  continue_final_message (bool, or the name of the field to
//                  continue), tools (array of JSON schemas), documents (array
//                  of objects); every other key is an extra template variable
//                  (enable_thinking, date_string, ...), and bos_token /
//                  eos_token there override the arguments.
// bos_token, eos_token: the tokenizer's; empty means the tokenizer has none
//                  (the template sees them undefined, as in Python).
// On success *out is the rendered text. Errors:
//   kFormat - invalid messages/options JSON, inputs Python rejects (empty
//             conversation, continue_final_message with add_generation_prompt,
//             ...) or a template syntax error;
//   kEncode - the template failed while rendering: raise_exception(), an
//             undefined value used, a type error, a sandbox or resource limit.
// The message reads like the Python package's TemplateError message:
// "chat template, line 3: raise_exception: Conversation roles must alternate".
mtok::Status ApplyChatTemplate(std::string_view template_source, std::string_view messages_json,
                               std::string_view options_json, std::string_view bos_token,
                               std::string_view eos_token, std::string* out);

// The same with explicit limits and clock (tests pin strftime_now's time).
struct RenderSettings {
  Limits limits;
  Clock clock;  // empty: the local time
};
mtok::Status ApplyChatTemplate(std::string_view template_source, std::string_view messages_json,
                               std::string_view options_json, std::string_view bos_token,
                               std::string_view eos_token, const RenderSettings& settings, std::string* out);

}  // namespace mtok::chat
