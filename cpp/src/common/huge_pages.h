// Read-mostly memory on 2 MB pages for large lookup tables walked at
// random (HugePageRegion, in the public mtok/memory.h: the bindings' id
// table uses it too).
#pragma once
#include <initializer_list>
#include <memory>
#include <string_view>

#include "mtok/memory.h"

namespace mtok {

// Copies the bytes of `views` into one new region (each copy 64-byte
// aligned) and points the views at their copies; null, with the views
// unchanged, when there is no memory for it.
std::unique_ptr<HugePageRegion> CopyToHugePages(std::initializer_list<std::string_view*> views);

}  // namespace mtok
