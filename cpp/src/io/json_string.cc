#include "io/json_string.h"

#include "common/utf8.h"

namespace mtok {
namespace {

// The four hex digits at s[at], or an error.
JsonStringError Hex4(std::string_view s, size_t at, uint32_t* out) {
  if (s.size() - at < 4) return JsonStringError::kTruncatedHex;
  uint32_t v = 0;
  for (size_t k = at; k < at + 4; ++k) {
    const char c = s[k];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return JsonStringError::kInvalidHex;
    v = v << 4 | static_cast<uint32_t>(d);
  }
  *out = v;
  return JsonStringError::kNone;
}

}  // namespace

JsonStringEnd DecodeJsonString(std::string_view s, size_t open, std::string* out) {
  auto fail = [](JsonStringError e, size_t at) { return JsonStringEnd{e, at}; };
  size_t pos = open + 1;
  size_t run = pos;  // start of the bytes copied as they are
  while (pos < s.size()) {
    const auto c = static_cast<unsigned char>(s[pos]);
    if (c == '"') {
      out->append(s.data() + run, pos - run);
      return JsonStringEnd{JsonStringError::kNone, pos + 1};
    }
    if (c < 0x20) return fail(JsonStringError::kControlCharacter, pos);
    if (c != '\\') {
      ++pos;
      continue;
    }
    out->append(s.data() + run, pos - run);
    const size_t esc = pos;
    if (esc + 1 >= s.size()) break;
    pos = esc + 2;
    switch (s[esc + 1]) {
      case '"': out->push_back('"'); break;
      case '\\': out->push_back('\\'); break;
      case '/': out->push_back('/'); break;
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'u': {
        uint32_t cp = 0;
        if (JsonStringError e = Hex4(s, pos, &cp); e != JsonStringError::kNone) return fail(e, pos);
        pos += 4;
        if (cp >= 0xDC00 && cp < 0xE000) return fail(JsonStringError::kLoneSurrogate, esc);
        if (cp >= 0xD800 && cp < 0xDC00) {
          // A high surrogate: only with a \u escape of a low one after it.
          uint32_t lo = 0;
          if (s.substr(pos, 2) != "\\u" || Hex4(s, pos + 2, &lo) != JsonStringError::kNone || lo < 0xDC00 ||
              lo >= 0xE000) {
            return fail(JsonStringError::kLoneSurrogate, esc);
          }
          pos += 6;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        utf8::append(*out, cp);
        break;
      }
      default:
        return fail(JsonStringError::kInvalidEscape, esc);
    }
    run = pos;
  }
  return fail(JsonStringError::kUnterminated, open);
}

}  // namespace mtok
