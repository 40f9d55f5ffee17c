// TEMPORARY (branch sdk only, deleted when the jinja branch lands).
#include "capi/chat_pending.h"

namespace mtok::chat {

Status ApplyChatTemplate(std::string_view, std::string_view, std::string_view, std::string_view,
                         std::string_view, std::string*) {
  return Status(ErrorKind::kInternal, "the native chat template engine is not built yet");
}

}  // namespace mtok::chat
