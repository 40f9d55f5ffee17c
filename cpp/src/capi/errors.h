// The C API's error handling: the thread's last error message, the mapping
// from a core Status to an MTOK_E_* code, and Guard, which runs a call's
// body and turns every C++ exception into a return code, so nothing throws
// or aborts across the C boundary.
#pragma once
#include <exception>
#include <new>
#include <stdexcept>
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

// Fail for an exception caught at the boundary: "<function>: <what>".
// Never throws (an out-of-memory message falls back to `what` alone).
int FailCaught(int code, const char* function, const char* what) noexcept;

// body() -> int, with every exception caught. `function` names the call in
// the message. std::invalid_argument comes from the environment (a bad
// MTOK_* variable); anything else escaping the core is a bug.
template <typename Body>
int Guard(const char* function, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return FailCaught(MTOK_E_NO_MEMORY, function, "out of memory");
  } catch (const std::invalid_argument& e) {
    return FailCaught(MTOK_E_INVALID_ARGUMENT, function, e.what());
  } catch (const std::exception& e) {
    return FailCaught(MTOK_E_INTERNAL, function, e.what());
  } catch (...) {
    return FailCaught(MTOK_E_INTERNAL, function, "unknown exception");
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
