#include "convert/json_cursor.h"

#include <cmath>
#include <cstdlib>

#include "io/json_string.h"

namespace mtok::convert {

namespace {
constexpr int kMaxDepth = 64;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

char JsonCursor::Peek() {
  while (pos_ < s_.size()) {
    char c = s_[pos_];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
    ++pos_;
  }
  return 0;
}

bool JsonCursor::Eat(char c) {
  if (Peek() != c || pos_ >= s_.size()) return false;
  ++pos_;
  return true;
}

bool JsonCursor::String(std::string* out) {
  if (Peek() != '"') return false;
  out->clear();
  const JsonStringEnd end = DecodeJsonString(s_, pos_, out);
  if (end.error != JsonStringError::kNone) return false;
  pos_ = end.pos;
  return true;
}

bool JsonCursor::Number(std::string_view* text, bool* has_fraction) {
  Peek();
  size_t b = pos_, n = s_.size();
  size_t i = pos_;
  if (i < n && s_[i] == '-') ++i;
  if (i >= n || !IsDigit(s_[i])) return false;
  if (s_[i] == '0') {
    ++i;
  } else {
    while (i < n && IsDigit(s_[i])) ++i;
  }
  *has_fraction = false;
  if (i < n && s_[i] == '.') {
    ++i;
    if (i >= n || !IsDigit(s_[i])) return false;
    while (i < n && IsDigit(s_[i])) ++i;
    *has_fraction = true;
  }
  if (i < n && (s_[i] == 'e' || s_[i] == 'E')) {
    ++i;
    if (i < n && (s_[i] == '+' || s_[i] == '-')) ++i;
    if (i >= n || !IsDigit(s_[i])) return false;
    while (i < n && IsDigit(s_[i])) ++i;
    *has_fraction = true;
  }
  *text = s_.substr(b, i - b);
  pos_ = i;
  return true;
}

bool JsonCursor::Unsigned(uint64_t* out) {
  std::string_view text;
  bool frac;
  if (!Number(&text, &frac) || frac || text[0] == '-' || text.size() > 18) return false;
  uint64_t v = 0;
  for (char c : text) v = v * 10 + static_cast<uint64_t>(c - '0');
  *out = v;
  return true;
}

bool JsonCursor::Literal(std::string_view* word) {
  Peek();
  for (std::string_view w : {"null", "true", "false"}) {
    if (s_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      *word = w;
      return true;
    }
  }
  return false;
}

bool JsonCursor::NextKey(std::string* key, bool* done, bool* first) {
  *done = Eat('}');
  if (*done) return true;
  if (!*first && !Eat(',')) return false;  // after ',' a key must follow
  *first = false;
  return String(key) && Eat(':');
}

bool JsonCursor::NextElement(bool* done, bool* first) {
  *done = Eat(']');
  if (*done) return true;
  if (!*first && !Eat(',')) return false;  // after ',' a value must follow
  *first = false;
  return true;
}

bool JsonCursor::Skip(int depth) {
  if (depth > kMaxDepth) return false;
  char c = Peek();
  std::string scratch;
  bool done, first = true;
  if (c == '{') {
    BeginObject();
    while (NextKey(&scratch, &done, &first)) {
      if (done) return true;
      if (!Skip(depth + 1)) return false;
    }
    return false;
  }
  if (c == '[') {
    BeginArray();
    while (NextElement(&done, &first)) {
      if (done) return true;
      if (!Skip(depth + 1)) return false;
    }
    return false;
  }
  if (c == '"') return String(&scratch);
  std::string_view w;
  bool frac;
  return c == '-' || IsDigit(c) ? Number(&w, &frac) : Literal(&w);
}

double SerdeF64(std::string_view t) {
  static const double* pow10 = [] {
    static double table[309];
    for (int k = 0; k < 309; ++k) table[k] = std::strtod(("1e" + std::to_string(k)).c_str(), nullptr);
    return table;
  }();
  bool negative = !t.empty() && t[0] == '-';
  size_t i = negative ? 1 : 0;
  uint64_t significand = 0;
  int64_t exponent = 0;
  bool overflow = false;
  for (int part = 0; part < 2; ++part) {
    for (; i < t.size() && IsDigit(t[i]); ++i) {
      if (overflow) {
        if (part == 0) ++exponent;  // integer digits past the u64 still scale
        continue;
      }
      uint64_t d = static_cast<uint64_t>(t[i] - '0');
      if (significand > (UINT64_MAX - d) / 10) {
        overflow = true;  // serde ignores the remaining digits
        if (part == 0) ++exponent;
        continue;
      }
      significand = significand * 10 + d;
      if (part == 1) --exponent;
    }
    if (part == 0 && i < t.size() && t[i] == '.') ++i;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool neg_exp = i < t.size() && t[i] == '-';
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    int64_t e = 0;
    for (; i < t.size() && IsDigit(t[i]); ++i) e = e < 1000000 ? e * 10 + (t[i] - '0') : e;
    exponent += neg_exp ? -e : e;
  }
  double f = static_cast<double>(significand);
  while (true) {
    if (exponent > -309 && exponent < 309) {
      f = exponent >= 0 ? f * pow10[exponent] : f / pow10[-exponent];
      break;
    }
    if (f == 0.0) break;
    if (exponent >= 0) return negative ? -HUGE_VAL : HUGE_VAL;
    f /= 1e308;
    exponent += 308;
  }
  return negative ? -f : f;
}

}  // namespace mtok::convert
