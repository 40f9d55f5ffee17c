#pragma once
#include <cstring>

#include "io/byte_reader.h"
#include "mtok/tokenizer.h"

namespace mtok {

// Reads the three header lines; *type is the tokenizer type on line 1
// (4 = pipeline .mtok, 0-3 = legacy .txt).
Status ReadHeader(ByteReader& r, int* type, TokenizerInfo* info);

}  // namespace mtok
