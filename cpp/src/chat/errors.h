// How the engine fails. Evaluation errors are thrown as RenderError inside
// the engine and become a Status at ApplyChatTemplate; nothing escapes it.
#pragma once
#include <string>

namespace mtok::chat {

struct RenderError {
  // The Python exception jinja2 (or mtok's Python renderer) raises for the
  // same failure: "TemplateSyntaxError", "UndefinedError", "TypeError",
  // "SecurityError", "RenderLimitError", "raise_exception" (a TemplateError
  // from the template's own raise_exception), "input" (rejected arguments).
  std::string type;
  std::string message;
  int line = 0;  // 1-based template line, 0 when unknown
};

[[noreturn]] void Fail(const char* type, std::string message, int line = 0);
[[noreturn]] inline void TypeFail(std::string message) { Fail("TypeError", std::move(message)); }

}  // namespace mtok::chat
