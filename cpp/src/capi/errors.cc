#include "capi/errors.h"

namespace mtok::capi {

// Written by failing calls only: a message stays readable after later
// successful calls on the same thread.
static thread_local std::string last_error;

namespace {

int CodeOf(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kOk:
      return MTOK_OK;
    case ErrorKind::kFormat:
      return MTOK_E_FORMAT;
    case ErrorKind::kEncode:
      return MTOK_E_ENCODE;
    case ErrorKind::kUnsupported:
      return MTOK_E_UNSUPPORTED;
    case ErrorKind::kInternal:
      break;
  }
  return MTOK_E_INTERNAL;
}

}  // namespace

int Fail(int code, std::string_view message) {
  try {
    last_error.assign(message.data(), message.size());
  } catch (...) {
    last_error.clear();  // out of memory for the message itself: the code still says why
  }
  return code;
}

int Fail(const Status& status) { return Fail(CodeOf(status.kind()), status.message()); }

int FailCaught(int code, const char* function, const char* what) noexcept {
  try {
    const char* kind = code == MTOK_E_INTERNAL ? ": internal error: " : ": ";
    last_error = std::string(function) + kind + what;
  } catch (...) {
    last_error.clear();
    try {
      last_error = what;  // may fit where the longer message did not
    } catch (...) {
    }
  }
  return code;
}

int NullArgument(const char* function, const char* argument) {
  return Fail(MTOK_E_INVALID_ARGUMENT, std::string(function) + ": " + argument + " is NULL");
}

}  // namespace mtok::capi

extern "C" {

const char* mtok_version(void) { return MTOK_VERSION_STRING; }

const char* mtok_last_error(void) { return mtok::capi::last_error.c_str(); }

const char* mtok_code_name(int code) {
  switch (code) {
    case MTOK_OK: return "MTOK_OK";
    case MTOK_E_INVALID_ARGUMENT: return "MTOK_E_INVALID_ARGUMENT";
    case MTOK_E_IO: return "MTOK_E_IO";
    case MTOK_E_FORMAT: return "MTOK_E_FORMAT";
    case MTOK_E_UNSUPPORTED: return "MTOK_E_UNSUPPORTED";
    case MTOK_E_INVALID_UTF8: return "MTOK_E_INVALID_UTF8";
    case MTOK_E_ENCODE: return "MTOK_E_ENCODE";
    case MTOK_E_NOT_FOUND: return "MTOK_E_NOT_FOUND";
    case MTOK_E_JSON: return "MTOK_E_JSON";
    case MTOK_E_TEMPLATE: return "MTOK_E_TEMPLATE";
    case MTOK_E_NO_MEMORY: return "MTOK_E_NO_MEMORY";
    case MTOK_E_INTERNAL: return "MTOK_E_INTERNAL";
    default: return "unknown";
  }
}

}  // extern "C"
