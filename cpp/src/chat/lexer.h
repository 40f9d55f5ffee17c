// Tokens of a chat template, with the whitespace control of transformers'
// environment (trim_blocks and lstrip_blocks on, '-' and '+' markers), as
// jinja2's lexer produces them.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mtok::chat {

enum class Tok : uint8_t {
  kData,        // template text between tags (value: the text)
  kVarBegin,    // {{
  kVarEnd,      // }}
  kBlockBegin,  // {%
  kBlockEnd,    // %}
  kName,
  kString,      // value: the unescaped string
  kInt,         // value: decimal digits of the (already converted) integer
  kFloat,       // value: Python-literal text
  kOp,          // value: the operator ("==", "(", "|" ...)
  kEof,
};

struct Token {
  Tok type;
  std::string value;
  int line;
};

// Tokenizes `source`; throws a TemplateSyntaxError RenderError on unclosed
// tags, bad string escapes and unbalanced brackets.
std::vector<Token> Lex(std::string_view source);

}  // namespace mtok::chat
