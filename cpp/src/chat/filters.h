// Helpers shared by the filter, test and global implementations.
#pragma once
#include <string>

#include "chat/interpreter.h"

namespace mtok::chat {

// Argument `pos` (0-based, after the filter's input) or the keyword `name`.
const Value* Param(const CallArgs& a, size_t pos, const char* name);
// jinja2's soft_str: strings (and Markup) unchanged, others str().
Value SoftStr(const Value& v);
// An iterator value (a generator in jinja2) over `items`.
Value Generator(List items);
// jinja2's make_attrgetter: "a.b.0" looked up part by part with getitem.
Value GetPath(Interpreter& in, const Value& obj, const Value& attribute);
// Python's sorted() of `items` by `key`; stable.
void SortValues(std::vector<std::pair<Value, Value>>* keyed, bool reverse);

using FilterFn = Value (*)(Interpreter&, const Value& input, const CallArgs&);
FilterFn FindSequenceFilter(const std::string& name);

}  // namespace mtok::chat
