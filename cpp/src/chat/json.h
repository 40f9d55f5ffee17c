// JSON in and out of template values: a strict reader for the messages and
// options the C API receives, and Python's json.dumps (what the template
// filter tojson calls) as a writer.
#pragma once
#include <string>
#include <string_view>

#include "chat/value.h"

namespace mtok::chat {

// Deepest nesting of arrays/objects ReadJson accepts.
constexpr int kMaxJsonDepth = 512;

// Parses exactly one RFC 8259 JSON value (surrounding whitespace allowed)
// into *out. Rejects what Python's json.loads would not give an equal
// value for in a template: NaN/Infinity, integers outside int64, lone
// surrogate escapes, invalid UTF-8. On failure returns false with *error
// naming the problem and its byte offset. Duplicate keys: the last wins, at
// the first one's position, as in Python.
bool ReadJson(std::string_view text, Value* out, std::string* error);

struct JsonDumpOptions {
  bool ensure_ascii = false;
  bool has_indent = false;
  std::string indent;          // one level of indentation
  std::string item_separator;  // "," or ", " unless given
  std::string key_separator = ": ";
  bool sort_keys = false;
};

// json.dumps(value, ...) as Python writes it; throws a TypeError
// RenderError for values JSON cannot hold (Undefined, namespaces, ...).
std::string DumpJson(const Value& value, const JsonDumpOptions& options);

}  // namespace mtok::chat
