// TEMPORARY (branch sdk only, deleted when the jinja branch lands): the
// declaration cpp/src/chat/apply_chat_template.h will provide.
#pragma once
#include <string>
#include <string_view>

#include "mtok/status.h"

namespace mtok::chat {

Status ApplyChatTemplate(std::string_view template_source, std::string_view messages_json,
                         std::string_view options_json, std::string_view bos_token,
                         std::string_view eos_token, std::string* out);

}  // namespace mtok::chat
