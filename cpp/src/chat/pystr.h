// Python's str behaviour on UTF-8 text: str()/repr() of values, float
// repr, whitespace, case mapping, strip/split. Templates index and slice
// strings by code point, as Python does.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "chat/value.h"

namespace mtok::chat {

std::u32string ToCodePoints(std::string_view s);
std::string FromCodePoints(std::u32string_view s);
size_t CodePointCount(std::string_view s);

// str.isspace() of one code point (what Python's strip()/split() remove).
bool IsPySpace(char32_t cp);

std::string FloatRepr(double d);      // repr(float): '1.0', '1e+16', 'inf'
std::string StrRepr(std::string_view s);  // repr(str): "'a'", '"it\'s"'
std::string ToStr(const Value& v);    // str(v); Undefined -> ""
std::string Repr(const Value& v);     // repr(v)

std::string PyUpper(std::string_view s);
std::string PyLower(std::string_view s);
std::string PyTitle(std::string_view s);
std::string PyCapitalize(std::string_view s);

// str.strip/lstrip/rstrip; chars == nullptr strips whitespace.
std::string PyStrip(std::string_view s, const std::string* chars, bool left, bool right);
// str.split(sep, maxsplit); sep == nullptr splits on whitespace runs.
std::vector<std::string> PySplit(std::string_view s, const std::string* sep, int64_t maxsplit);
std::vector<std::string> PyRSplit(std::string_view s, const std::string* sep, int64_t maxsplit);
// str.replace(old, new, count); count < 0 replaces all.
std::string PyReplace(std::string_view s, std::string_view old, std::string_view repl, int64_t count);

// markupsafe.escape of text: & < > ' " as entities.
std::string HtmlEscape(std::string_view s);

}  // namespace mtok::chat
