// UTF-8 checks the core and its language bindings share.
#pragma once
#include <cstddef>
#include <string_view>

namespace mtok {
namespace utf8 {

// True when s is well-formed UTF-8 (no surrogates, no overlongs, <= U+10FFFF).
// On failure *bad_offset is the offset of the first bad byte.
bool validate(std::string_view s, size_t* bad_offset);

}  // namespace utf8
}  // namespace mtok
