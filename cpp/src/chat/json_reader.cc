#include <charconv>
#include <cmath>

#include "chat/json.h"
#include "common/utf8.h"
#include "io/json_string.h"

namespace mtok::chat {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  bool Run(Value* out, std::string* error) {
    size_t bad = 0;
    if (!utf8::validate(s_, &bad)) return Err(error, "invalid UTF-8", bad);
    SkipSpace();
    if (!ParseValue(out, 0)) return Err(error, what_, at_);
    SkipSpace();
    if (pos_ != s_.size()) return Err(error, "extra data after the JSON value", pos_);
    return true;
  }

 private:
  static bool Err(std::string* error, const std::string& what, size_t offset) {
    *error = what + " at offset " + std::to_string(offset);
    return false;
  }
  bool Fail(const char* what, size_t at) {
    what_ = what;
    at_ = at;
    return false;
  }
  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return Fail("invalid literal", pos_);
    pos_ += word.size();
    return true;
  }

  bool ParseValue(Value* out, int depth) {
    if (pos_ >= s_.size()) return Fail("unexpected end of input, expected a value", pos_);
    char c = s_[pos_];
    switch (c) {
      case '{': return ParseObject(out, depth + 1);
      case '[': return ParseArray(out, depth + 1);
      case '"': {
        std::string str;
        if (!ParseString(&str)) return false;
        *out = Value::Str(std::move(str));
        return true;
      }
      case 't': *out = Value::Bool(true); return Literal("true");
      case 'f': *out = Value::Bool(false); return Literal("false");
      case 'n': *out = Value::None(); return Literal("null");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
        return Fail("unexpected character, expected a value", pos_);
    }
  }

  bool ParseObject(Value* out, int depth) {
    if (depth > kMaxJsonDepth) return Fail("JSON nested too deeply", pos_);
    ++pos_;
    Dict dict;
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      *out = Value::MakeDict(std::move(dict));
      return true;
    }
    while (true) {
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') return Fail("expected a string key", pos_);
      std::string key;
      if (!ParseString(&key)) return false;
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != ':') return Fail("expected ':' after an object key", pos_);
      ++pos_;
      SkipSpace();
      Value item;
      if (!ParseValue(&item, depth)) return false;
      dict.Set(Value::Str(std::move(key)), std::move(item));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        *out = Value::MakeDict(std::move(dict));
        return true;
      }
      return Fail("expected ',' or '}' in an object", pos_);
    }
  }

  bool ParseArray(Value* out, int depth) {
    if (depth > kMaxJsonDepth) return Fail("JSON nested too deeply", pos_);
    ++pos_;
    List items;
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      *out = Value::MakeList(std::move(items));
      return true;
    }
    while (true) {
      SkipSpace();
      Value item;
      if (!ParseValue(&item, depth)) return false;
      items.push_back(std::move(item));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        *out = Value::MakeList(std::move(items));
        return true;
      }
      return Fail("expected ',' or ']' in an array", pos_);
    }
  }

  bool ParseString(std::string* out) {
    const JsonStringEnd end = DecodeJsonString(s_, pos_, out);
    switch (end.error) {
      case JsonStringError::kNone: pos_ = end.pos; return true;
      case JsonStringError::kUnterminated: return Fail("unterminated string", end.pos);
      case JsonStringError::kControlCharacter: return Fail("control character in a string", end.pos);
      case JsonStringError::kInvalidEscape: return Fail("invalid escape in a string", end.pos);
      case JsonStringError::kTruncatedHex: return Fail("truncated \\u escape", end.pos);
      case JsonStringError::kInvalidHex: return Fail("invalid \\u escape", end.pos);
      case JsonStringError::kLoneSurrogate: return Fail("lone surrogate in a \\u escape", end.pos);
    }
    return Fail("invalid string", end.pos);
  }

  bool ParseNumber(Value* out) {
    size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (pos_ >= s_.size() || !(s_[pos_] >= '0' && s_[pos_] <= '9')) return Fail("invalid number", start);
    if (s_[pos_] == '0') {
      ++pos_;
      if (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') return Fail("leading zero in a number", start);
    } else {
      digits();
    }
    bool is_float = false;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      is_float = true;
      if (digits() == 0) return Fail("invalid number", start);
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      is_float = true;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (digits() == 0) return Fail("invalid number", start);
    }
    const char* b = s_.data() + start;
    const char* e = s_.data() + pos_;
    if (!is_float) {
      int64_t v = 0;
      auto res = std::from_chars(b, e, v);
      if (res.ec != std::errc() || res.ptr != e) return Fail("integer out of the 64-bit range", start);
      *out = Value::Int(v);
      return true;
    }
    double d = 0;
    auto res = std::from_chars(b, e, d);
    if (res.ec == std::errc::result_out_of_range) {
      // Python reads 1e400 as inf and 1e-400 as 0.0.
      bool tiny = std::string_view(b, e - b).find("e-") != std::string_view::npos ||
                  std::string_view(b, e - b).find("E-") != std::string_view::npos;
      d = tiny ? 0.0 : HUGE_VAL;
      if (*b == '-') d = -d;
    } else if (res.ec != std::errc() || res.ptr != e) {
      return Fail("invalid number", start);
    }
    *out = Value::Float(d);
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string what_;
  size_t at_ = 0;
};

}  // namespace

bool ReadJson(std::string_view text, Value* out, std::string* error) {
  return Reader(text).Run(out, error);
}

}  // namespace mtok::chat
