// Backslash escapes and \p{..} property names, shared by the regex parser's
// top level and its character classes.
#pragma once
#include <cstddef>
#include <string_view>

#include "common/regex_ast.h"
#include "common/regex_charset.h"
#include "mtok/status.h"

namespace mtok::regex_internal {

struct Flags {
  bool icase = false;
  bool multiline = false;  // ^ $ at line boundaries (Rust (?m); always so in Oniguruma)
  bool dotall = false;     // . matches \n (Rust (?s), Oniguruma (?m))
};

struct Escape {
  enum Kind { kLiteral, kSet, kAssert } kind = kLiteral;
  char32_t cp = 0;     // kLiteral
  CharSet set;         // kSet, with (?i) and negation applied
  bool negated = false;  // kSet: \P.. \D \S \W
  AssertKind assert_kind = AssertKind::kTextBegin;
};

// Parses the escape at pattern[*i] (a backslash) and advances *i past it.
Status ParseEscape(std::string_view pattern, size_t* i, bool onig, const Flags& flags,
                   bool in_class, Escape* out);

}  // namespace mtok::regex_internal
