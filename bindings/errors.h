// Maps a core Status onto the mtok.errors exception classes.
#pragma once
#include <nanobind/nanobind.h>

#include "mtok/status.h"

namespace mtok_py {

[[noreturn]] void Raise(const mtok::Status& st);
[[noreturn]] void RaiseEncodeError(const std::string& message);

inline void Check(const mtok::Status& st) {
  if (!st.ok()) Raise(st);
}

}  // namespace mtok_py
