// The buffers the C API hands out: plain malloc, so a failed allocation is
// a return code and every mtok_free_* is free().
#include <cstdlib>
#include <cstring>

#include "capi/errors.h"
#include "capi/handles.h"

namespace mtok::capi {

int ReturnString(std::string_view s, char** text, size_t* len) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p == nullptr) return Fail(MTOK_E_NO_MEMORY, "out of memory for a string of " + std::to_string(s.size()) + " bytes");
  if (!s.empty()) std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  *text = p;
  if (len != nullptr) *len = s.size();
  return MTOK_OK;
}

int ReturnIds(const std::vector<uint32_t>& ids, uint32_t** out, size_t* n) {
  uint32_t* p = nullptr;
  if (!ids.empty()) {
    p = static_cast<uint32_t*>(std::malloc(ids.size() * sizeof(uint32_t)));
    if (p == nullptr) return Fail(MTOK_E_NO_MEMORY, "out of memory for " + std::to_string(ids.size()) + " ids");
    std::memcpy(p, ids.data(), ids.size() * sizeof(uint32_t));
  }
  *out = p;
  *n = ids.size();
  return MTOK_OK;
}

}  // namespace mtok::capi

extern "C" {

void mtok_free_ids(uint32_t* ids) { std::free(ids); }
void mtok_free_offsets(size_t* offsets) { std::free(offsets); }
void mtok_free_string(char* s) { std::free(s); }

}  // extern "C"
