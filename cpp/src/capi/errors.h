// The C API's error handling: the thread's last error message, the mapping
// from a core Status to an MTOK_E_* code, and Guard, which runs a call's
// body and turns every C++ exception into a return code, so nothing throws
// or aborts across the C boundary.
#pragma once
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "mtok/mtok.h"
#include "mtok/status.h"

namespace mtok::capi {

// Stores `message` as the calling thread's last error; returns `code`.
int Fail(int code, std::string_view message);
// A failed Status as its MTOK_E_* code (the message is the Status's).
int Fail(const Status& status);
// Ok: 0; otherwise Fail(status).
inline int Check(const Status& status) { return status.ok() ? MTOK_OK : Fail(status); }

// MTOK_E_INVALID_ARGUMENT naming a NULL argument of `function`.
int NullArgument(const char* function, const char* argument);

// body() -> int, with every exception caught. `function` names the call in
// the message.
template <typename Body>
int Guard(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(MTOK_E_NO_MEMORY, std::string(function) + ": out of memory");
  } catch (const std::exception& e) {
    return Fail(MTOK_E_INTERNAL, std::string(function) + ": internal error: " + e.what());
  } catch (...) {
    return Fail(MTOK_E_INTERNAL, std::string(function) + ": internal error (unknown exception)");
  }
}

}  // namespace mtok::capi

// Returns MTOK_E_INVALID_ARGUMENT from the enclosing function when `arg` is
// NULL; `fn` (in scope) names the C function.
#define MTOK_CAPI_REQUIRE(arg) \
  do {                         \
    if ((arg) == nullptr) return ::mtok::capi::NullArgument(fn, #arg); \
  } while (0)

// Returns from the enclosing function when the int code `expr` is not MTOK_OK.
#define MTOK_RETURN_IF_C_ERROR(expr) \
  do {                               \
    const int _code = (expr);        \
    if (_code != MTOK_OK) return _code; \
  } while (0)
