// GPT-2's byte <-> printable character mapping (ByteLevel pre-tokenizer and
// decoder): printable Latin-1 bytes map to themselves, the other 68 bytes to
// U+0100.. in byte order.
#pragma once
#include <array>
#include <cstdint>

namespace mtok::byte_level {

struct Tables {
  std::array<char32_t, 256> byte_to_char;
  // char (only U+0000..U+01FF can occur) -> byte, or -1.
  std::array<int16_t, 512> char_to_byte;
};

inline const Tables& tables() {
  static const Tables t = [] {
    Tables r{};
    r.char_to_byte.fill(-1);
    auto printable = [](int b) {
      return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
    };
    int next = 256;
    for (int b = 0; b < 256; ++b) {
      char32_t c = printable(b) ? char32_t(b) : char32_t(next++);
      r.byte_to_char[b] = c;
      r.char_to_byte[c] = static_cast<int16_t>(b);
    }
    return r;
  }();
  return t;
}

// Byte for char c, or -1 when c is not in the byte-level alphabet.
inline int CharToByte(char32_t c) { return c < 512 ? tables().char_to_byte[c] : -1; }

}  // namespace mtok::byte_level
