#include "chat/lexer.h"

#include <cstring>

#include "chat/errors.h"
#include "chat/pystr.h"
#include "common/utf8.h"

namespace mtok::chat {
namespace {

// jinja2 splits on \r\n, \r and \n, joins with \n and drops one trailing
// newline (keep_trailing_newline is off).
std::string NormalizeNewlines(std::string_view src) {
  std::string out;
  out.reserve(src.size());
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i] == '\r') {
      out.push_back('\n');
      if (i + 1 < src.size() && src[i + 1] == '\n') ++i;
    } else {
      out.push_back(src[i]);
    }
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsNameStart(unsigned char c) { return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c >= 0x80; }
bool IsNameChar(unsigned char c) { return IsNameStart(c) || IsDigit(static_cast<char>(c)); }

const char* const kOperators[] = {"//", "**", "==", "!=", ">=", "<=", "+", "-", "/", "*", "%", "~", "[",
                                  "]", "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";"};

class Lexer {
 public:
  explicit Lexer(std::string_view source) : src_(NormalizeNewlines(source)) {}

  std::vector<Token> Run() {
    while (pos_ < src_.size()) Root();
    out_.push_back({Tok::kEof, "", line_});
    return std::move(out_);
  }

 private:
  // Whitespace as Python's \s / str.isspace() at src_[at], its byte length
  // in *len (0 when not whitespace).
  size_t SpaceLen(size_t at) const {
    int len = 1;
    char32_t c = utf8::decode(src_, at, &len);
    return IsPySpace(c) ? static_cast<size_t>(len) : 0;
  }
  size_t SkipSpace(size_t at) const {
    while (at < src_.size()) {
      size_t n = SpaceLen(at);
      if (n == 0) break;
      at += n;
    }
    return at;
  }
  void Emit(Tok type, std::string value) { out_.push_back({type, std::move(value), line_}); }
  void CountLines(std::string_view s) {
    for (char c : s) line_ += c == '\n';
  }
  [[noreturn]] void Error(std::string message) { Fail("TemplateSyntaxError", std::move(message), line_); }

  // The text before a tag, with '-' / lstrip_blocks stripping applied.
  void EmitText(std::string_view text, char sign, bool lstrip_allowed) {
    std::string data(text);
    size_t stripped_newlines = 0;
    if (sign == '-') {
      std::string kept = PyStrip(text, nullptr, false, true);
      for (size_t k = kept.size(); k < text.size(); ++k) stripped_newlines += text[k] == '\n';
      data = std::move(kept);
    } else if (sign != '+' && lstrip_allowed) {
      size_t nl = text.rfind('\n');
      size_t l_pos = nl == std::string_view::npos ? 0 : nl + 1;
      if ((l_pos > 0 || line_starting_) && l_pos < text.size()) {
        bool all_space = true;
        for (size_t k = l_pos; k < text.size();) {
          size_t n = SpaceLen(text_base_ + k);
          if (n == 0) {
            all_space = false;
            break;
          }
          k += n;
        }
        if (all_space) data = std::string(text.substr(0, l_pos));
      }
    }
    if (!data.empty()) Emit(Tok::kData, data);
    CountLines(data);
    line_ += static_cast<int>(stripped_newlines);
  }

  // Matches "%}" style block ends at `at`: "+%}", "-%}\s*" or "%}\n?".
  // Returns the position after it, or npos.
  size_t BlockEnd(size_t at, const char* end) const {
    size_t n = std::strlen(end);
    if (src_.compare(at, 1, "+") == 0 && src_.compare(at + 1, n, end) == 0) return at + 1 + n;
    if (src_.compare(at, 1, "-") == 0 && src_.compare(at + 1, n, end) == 0) return SkipSpace(at + 1 + n);
    if (src_.compare(at, n, end) == 0) {
      at += n;
      if (at < src_.size() && src_[at] == '\n') ++at;  // trim_blocks
      return at;
    }
    return std::string::npos;
  }

  // {% raw %} at `at` (with optional sign); the position after it, or npos.
  size_t RawBegin(size_t at) const {
    size_t k = at + 2;
    if (k < src_.size() && (src_[k] == '-' || src_[k] == '+')) ++k;
    k = SkipSpace(k);
    if (src_.compare(k, 3, "raw") != 0) return std::string::npos;
    k = SkipSpace(k + 3);
    if (src_.compare(k, 3, "-%}") == 0) return SkipSpace(k + 3);
    if (src_.compare(k, 2, "%}") == 0) return k + 2;
    return std::string::npos;
  }

  void Root() {
    size_t p = pos_;
    while (true) {
      p = src_.find('{', p);
      if (p == std::string::npos || p + 1 >= src_.size()) {
        text_base_ = pos_;
        std::string_view rest = std::string_view(src_).substr(pos_);
        Emit(Tok::kData, std::string(rest));
        CountLines(rest);
        pos_ = src_.size();
        return;
      }
      char c = src_[p + 1];
      if (c == '{' || c == '%' || c == '#') break;
      ++p;
    }
    std::string_view text = std::string_view(src_).substr(pos_, p - pos_);
    text_base_ = pos_;
    char kind = src_[p + 1];
    if (kind == '%') {
      size_t after_raw = RawBegin(p);
      if (after_raw != std::string::npos) {
        char sign = src_[p + 2] == '-' || src_[p + 2] == '+' ? src_[p + 2] : 0;
        EmitText(text, sign, true);
        CountLines(std::string_view(src_).substr(p, after_raw - p));
        pos_ = after_raw;
        line_starting_ = src_[pos_ - 1] == '\n';
        Raw();
        return;
      }
    }
    size_t k = p + 2;
    char sign = 0;
    if (k < src_.size() && (src_[k] == '-' || src_[k] == '+')) sign = src_[k++];
    EmitText(text, sign, kind != '{');
    line_starting_ = false;
    pos_ = k;
    if (kind == '#') {
      Comment();
    } else {
      Emit(kind == '{' ? Tok::kVarBegin : Tok::kBlockBegin, "");
      Tag(kind == '{');
    }
  }

  void Comment() {
    for (size_t k = pos_; k + 1 < src_.size(); ++k) {
      size_t end = std::string::npos;
      if (src_.compare(k, 3, "+#}") == 0) {
        end = k + 3;
      } else if (src_.compare(k, 3, "-#}") == 0) {
        end = SkipSpace(k + 3);
      } else if (src_.compare(k, 2, "#}") == 0) {
        end = k + 2;
        if (end < src_.size() && src_[end] == '\n') ++end;
      }
      if (end != std::string::npos) {
        CountLines(std::string_view(src_).substr(pos_, end - pos_));
        pos_ = end;
        line_starting_ = src_[end - 1] == '\n';
        return;
      }
    }
    Error("Missing end of comment tag");
  }

  void Raw() {
    for (size_t p = src_.find("{%", pos_); p != std::string::npos; p = src_.find("{%", p + 1)) {
      size_t k = p + 2;
      char sign = 0;
      if (k < src_.size() && (src_[k] == '-' || src_[k] == '+')) sign = src_[k++];
      k = SkipSpace(k);
      if (src_.compare(k, 6, "endraw") != 0) continue;
      k = SkipSpace(k + 6);
      size_t end = BlockEnd(k, "%}");
      if (end == std::string::npos) continue;
      text_base_ = pos_;
      EmitText(std::string_view(src_).substr(pos_, p - pos_), sign, true);
      CountLines(std::string_view(src_).substr(p, end - p));
      pos_ = end;
      line_starting_ = src_[end - 1] == '\n';
      return;
    }
    Error("Missing end of raw directive");
  }

  void Tag(bool variable) {
    std::vector<char> balance;
    while (pos_ < src_.size()) {
      if (balance.empty()) {
        size_t end = variable ? VarEnd(pos_) : BlockEnd(pos_, "%}");
        if (end != std::string::npos) {
          Emit(variable ? Tok::kVarEnd : Tok::kBlockEnd, "");
          CountLines(std::string_view(src_).substr(pos_, end - pos_));
          pos_ = end;
          line_starting_ = src_[end - 1] == '\n';
          return;
        }
      }
      size_t space = SkipSpace(pos_);
      if (space != pos_) {
        CountLines(std::string_view(src_).substr(pos_, space - pos_));
        pos_ = space;
        line_starting_ = src_[pos_ - 1] == '\n';
        continue;
      }
      line_starting_ = false;
      unsigned char c = static_cast<unsigned char>(src_[pos_]);
      if (IsDigit(static_cast<char>(c))) {
        Number();
      } else if (IsNameStart(c)) {
        size_t k = pos_;
        while (k < src_.size() && IsNameChar(static_cast<unsigned char>(src_[k]))) ++k;
        Emit(Tok::kName, src_.substr(pos_, k - pos_));
        pos_ = k;
      } else if (c == '\'' || c == '"') {
        String();
      } else {
        Operator(&balance);
      }
    }
  }

  size_t VarEnd(size_t at) const {
    if (src_.compare(at, 3, "-}}") == 0) return SkipSpace(at + 3);
    if (src_.compare(at, 2, "}}") == 0) return at + 2;
    return std::string::npos;
  }

  void Operator(std::vector<char>* balance) {
    for (const char* op : kOperators) {
      size_t n = std::strlen(op);
      if (src_.compare(pos_, n, op) != 0) continue;
      char c = op[0];
      if (n == 1 && (c == '(' || c == '[' || c == '{')) {
        balance->push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
      } else if (n == 1 && (c == ')' || c == ']' || c == '}')) {
        if (balance->empty()) Error(std::string("unexpected '") + c + "'");
        char expected = balance->back();
        balance->pop_back();
        if (expected != c) Error(std::string("unexpected '") + c + "', expected '" + expected + "'");
      }
      Emit(Tok::kOp, op);
      pos_ += n;
      return;
    }
    int len = 1;
    char32_t cp = utf8::decode(src_, pos_, &len);
    Error("unexpected char " + StrRepr(FromCodePoints(std::u32string(1, cp))) + " at " +
          std::to_string(CodePointCount(std::string_view(src_).substr(0, pos_))));
  }

  // Digits with optional single '_' separators; returns the end.
  size_t Digits(size_t k, bool (*digit)(char)) const {
    if (k >= src_.size() || !digit(src_[k])) return std::string::npos;
    while (k < src_.size()) {
      if (digit(src_[k])) {
        ++k;
      } else if (src_[k] == '_' && k + 1 < src_.size() && digit(src_[k + 1])) {
        k += 2;
      } else {
        break;
      }
    }
    return k;
  }

  void Number() {
    auto dec = [](char c) { return c >= '0' && c <= '9'; };
    size_t k = Digits(pos_, dec);
    // float: digits ('.' digits)? e[+-]digits | digits '.' digits
    size_t end = std::string::npos;
    bool preceded_by_dot = pos_ > 0 && src_[pos_ - 1] == '.';
    if (!preceded_by_dot) {
      size_t frac = k;
      if (frac < src_.size() && src_[frac] == '.') {
        size_t f = Digits(frac + 1, dec);
        if (f != std::string::npos) frac = f;
      }
      if (frac < src_.size() && (src_[frac] == 'e' || src_[frac] == 'E')) {
        size_t e = frac + 1;
        if (e < src_.size() && (src_[e] == '+' || src_[e] == '-')) ++e;
        size_t x = Digits(e, dec);
        if (x != std::string::npos) end = x;
      }
      if (end == std::string::npos && frac != k) end = frac;
    }
    if (end != std::string::npos) {
      std::string text;
      for (size_t i = pos_; i < end; ++i) {
        if (src_[i] != '_') text.push_back(src_[i]);
      }
      Emit(Tok::kFloat, text);
      pos_ = end;
      return;
    }
    int base = 10;
    size_t start = pos_;
    char prefix = pos_ + 1 < src_.size() ? static_cast<char>(src_[pos_ + 1] | 0x20) : 0;
    if (src_[pos_] == '0' && (prefix == 'b' || prefix == 'o' || prefix == 'x')) {
      base = prefix == 'b' ? 2 : prefix == 'o' ? 8 : 16;
      size_t q = pos_ + 2;
      auto ok = [&](char c) {
        int v = IsDigit(c) ? c - '0' : ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') ? (c | 0x20) - 'a' + 10 : 99;
        return v < base;
      };
      bool any = false;
      while (q < src_.size()) {
        if (src_[q] == '_' && q + 1 < src_.size() && ok(src_[q + 1])) q += 2, any = true;
        else if (ok(src_[q])) ++q, any = true;
        else break;
      }
      if (!any) {
        k = pos_ + 1;  // "0" then a name
        base = 10;
      } else {
        k = q;
        start = pos_ + 2;
      }
    } else if (src_[pos_] == '0') {
      k = pos_ + 1;
      while (k < src_.size() && (src_[k] == '0' || (src_[k] == '_' && k + 1 < src_.size() && src_[k + 1] == '0'))) {
        k += src_[k] == '_' ? 2 : 1;
      }
    }
    unsigned __int128 v = 0;
    for (size_t i = start; i < k; ++i) {
      char c = src_[i];
      if (c == '_') continue;
      int d = IsDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
      v = v * base + d;
      if (v > static_cast<unsigned __int128>(INT64_MAX)) Error("integer literal too large for this engine (64 bits)");
    }
    Emit(Tok::kInt, std::to_string(static_cast<int64_t>(v)));
    pos_ = k;
  }

  void String() {
    char quote = src_[pos_];
    size_t k = pos_ + 1;
    while (k < src_.size() && src_[k] != quote) k += src_[k] == '\\' ? 2 : 1;
    if (k >= src_.size()) {
      Error("unexpected char " + StrRepr(std::string(1, quote)) + " at " +
            std::to_string(CodePointCount(std::string_view(src_).substr(0, pos_))));
    }
    std::string_view body = std::string_view(src_).substr(pos_ + 1, k - pos_ - 1);
    Emit(Tok::kString, Unescape(body));
    CountLines(body);
    pos_ = k + 1;
  }

  // Python's unicode-escape decoding of a string literal's body.
  std::string Unescape(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '\\' || i + 1 >= s.size()) {
        out.push_back(s[i]);
        continue;
      }
      char e = s[++i];
      switch (e) {
        case '\n': break;
        case '\\': out.push_back('\\'); break;
        case '\'': out.push_back('\''); break;
        case '"': out.push_back('"'); break;
        case 'a': out.push_back('\a'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'v': out.push_back('\v'); break;
        case 'x': case 'u': case 'U': {
          size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          char32_t cp = 0;
          for (size_t d = 0; d < n; ++d) {
            char c = i + 1 + d < s.size() ? s[i + 1 + d] : 0;
            int v = IsDigit(c) ? c - '0' : ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') ? (c | 0x20) - 'a' + 10 : -1;
            if (v < 0) Error(std::string("truncated \\") + (e == 'x' ? "xXX" : e == 'u' ? "uXXXX" : "UXXXXXXXX") + " escape");
            cp = cp * 16 + v;
          }
          if (cp > 0x10FFFF) Error("illegal Unicode character");
          if (cp >= 0xD800 && cp <= 0xDFFF) Error("lone surrogate escape in a string literal");
          utf8::append(out, cp);
          i += n;
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            unsigned v = e - '0';
            for (int d = 0; d < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++d) v = v * 8 + (s[++i] - '0');
            utf8::append(out, v);
          } else {
            out.push_back('\\');
            out.push_back(e);
          }
      }
    }
    return out;
  }

  std::string src_;
  size_t pos_ = 0;
  size_t text_base_ = 0;
  int line_ = 1;
  bool line_starting_ = true;
  std::vector<Token> out_;
};

}  // namespace

std::vector<Token> Lex(std::string_view source) { return Lexer(source).Run(); }

}  // namespace mtok::chat
