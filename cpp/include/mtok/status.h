// Status: how the core reports failure. Nothing in the core throws across
// the Python boundary; bindings map a Status kind to a Python exception.
#pragma once
#include <string>
#include <utility>

namespace mtok {

enum class ErrorKind : unsigned char {
  kOk = 0,
  kFormat,       // a file or spec is malformed      -> mtok.FormatError
  kEncode,       // the input cannot be encoded        -> mtok.EncodeError
  kUnsupported,  // a valid file uses what we cannot run exactly -> FormatError
  kInternal,     // a bug in mtok                      -> MtokError
};

class Status {
 public:
  Status() = default;
  Status(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  static Status Ok() { return Status(); }
  bool ok() const { return kind_ == ErrorKind::kOk; }
  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_ = ErrorKind::kOk;
  std::string message_;
};

inline Status FormatError(std::string m) { return Status(ErrorKind::kFormat, std::move(m)); }
inline Status EncodeError(std::string m) { return Status(ErrorKind::kEncode, std::move(m)); }
inline Status UnsupportedError(std::string m) { return Status(ErrorKind::kUnsupported, std::move(m)); }

#define MTOK_RETURN_IF_ERROR(expr)        \
  do {                                    \
    ::mtok::Status _st = (expr);          \
    if (!_st.ok()) return _st;            \
  } while (0)

}  // namespace mtok
