// Template source to AST, with jinja2's grammar and operator precedence.
#pragma once
#include <string_view>

#include "chat/ast.h"

namespace mtok::chat {

// Parses `source`; throws a TemplateSyntaxError RenderError (with the line)
// on a syntax error, an unknown tag, or an unknown filter/test outside an
// if (jinja2 checks those when it compiles; inside an if they fail only
// when they run).
Template Parse(std::string_view source);

// Whether the environment has a filter / test of this name (filters.cc, tests.cc).
bool IsKnownFilter(std::string_view name);
bool IsKnownTest(std::string_view name);

}  // namespace mtok::chat
