// Decoding one JSON string literal, strictly (RFC 8259): the escapes, \u
// escapes with surrogate pairs joined, no lone surrogates, no raw control
// characters. UTF-8 is copied as it is (a reader checks it, if at all). The
// two JSON readers (chat/json_reader.cc, convert/json_cursor.cc) share it;
// each says its errors its own way.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mtok {

enum class JsonStringError : uint8_t {
  kNone,
  kUnterminated,      // at: the opening quote
  kControlCharacter,  // at: the raw byte below 0x20
  kInvalidEscape,     // at: the backslash of an escape that is not JSON's
  kTruncatedHex,      // at: the first of the four hex digits, fewer than four left
  kInvalidHex,        // at: the first of the four hex digits
  kLoneSurrogate,     // at: the backslash of a \u escape of an unpaired surrogate
};

struct JsonStringEnd {
  JsonStringError error = JsonStringError::kNone;
  size_t pos = 0;  // one past the closing quote; on an error, `at` above
};

// Appends the decoded string whose opening quote is s[open] to *out.
JsonStringEnd DecodeJsonString(std::string_view s, size_t open, std::string* out);

}  // namespace mtok
