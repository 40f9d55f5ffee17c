// HF's wordpiece::cleanup: removes the space tokenization put before
// punctuation and English contractions.
#pragma once
#include <string>

namespace mtok {

void CleanupTokenizationSpaces(std::string* s);

}  // namespace mtok
