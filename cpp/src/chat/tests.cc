// jinja2's builtin tests ("x is defined", "x is string" ...).
#include "chat/errors.h"
#include "chat/filters.h"
#include "chat/parser.h"
#include "chat/pystr.h"

namespace mtok::chat {
namespace {

const Value& Other(const CallArgs& a, const char* test) {
  const Value* v = Param(a, 0, nullptr);
  if (!v) TypeFail(std::string("test_") + test + "() missing 1 required positional argument");
  return *v;
}

bool Order(const Value& a, const Value& b, const char* op) {
  if (a.is_undefined()) UndefinedFail(a);
  if (b.is_undefined()) UndefinedFail(b);
  bool comparable = (a.is_number() && b.is_number()) || (a.is_string() && b.is_string()) ||
                    (a.kind == b.kind && a.is_list_like());
  if (!comparable) {
    TypeFail(std::string("'") + op + "' not supported between instances of '" + TypeName(a) + "' and '" + TypeName(b) + "'");
  }
  std::string o(op);
  if (o == "<") return Less(a, b);
  if (o == ">") return Less(b, a);
  if (o == "<=") return !Less(b, a);
  return !Less(a, b);
}

bool IntegerValue(const Value& v) { return v.kind == Kind::kInt; }

bool SameAs(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::kNone: case Kind::kUndefined: return a.kind == Kind::kNone || a.ptr == b.ptr;
    case Kind::kBool: return a.b == b.b;
    case Kind::kInt: return a.i == b.i && a.i >= -5 && a.i <= 256;  // CPython's cached small ints
    default: return a.ptr == b.ptr;
  }
}

bool Modulo(Interpreter& in, const Value& v, int64_t by, int64_t want) {
  Value r = BinaryOp(in, "%", v, Value::Int(by));
  return r.as_double() == static_cast<double>(want);
}

}  // namespace

bool Interpreter::RunTest(const std::string& name, const Value& v, const CallArgs& a, bool soft) {
  Step();
  (void)soft;
  const std::string& n = name;
  if (n == "defined") return !v.is_undefined();
  if (n == "undefined") return v.is_undefined();
  if (n == "none") return v.is_none();
  if (n == "string") return v.is_string();
  if (n == "mapping") return v.is_dict();
  if (n == "number") return v.is_number();
  if (n == "integer") return IntegerValue(v);
  if (n == "float") return v.kind == Kind::kFloat;
  if (n == "boolean") return v.kind == Kind::kBool;
  if (n == "true") return v.kind == Kind::kBool && v.b;
  if (n == "false") return v.kind == Kind::kBool && !v.b;
  if (n == "callable") return v.kind == Kind::kCallable;
  if (n == "escaped") return v.is_string() && v.markup;
  if (n == "iterable") {
    return v.is_undefined() || v.is_string() || v.is_list_like() || v.is_dict();
  }
  if (n == "sequence") {
    return v.is_undefined() || v.is_string() || v.is_dict() || (v.is_list_like() && !v.iterator);
  }
  if (n == "lower") return ToStr(v) == PyLower(ToStr(v)) && ToStr(v) != PyUpper(ToStr(v));
  if (n == "upper") return ToStr(v) == PyUpper(ToStr(v)) && ToStr(v) != PyLower(ToStr(v));
  if (n == "odd") return Modulo(*this, v, 2, 1);
  if (n == "even") return Modulo(*this, v, 2, 0);
  if (n == "divisibleby") {
    const Value& by = Other(a, "divisibleby");
    return BinaryOp(*this, "%", v, by).as_double() == 0;
  }
  if (n == "eq" || n == "equalto" || n == "==") return Equal(v, Other(a, "eq"));
  if (n == "ne" || n == "!=") return !Equal(v, Other(a, "ne"));
  if (n == "lt" || n == "lessthan" || n == "<") return Order(v, Other(a, "lt"), "<");
  if (n == "le" || n == "<=") return Order(v, Other(a, "le"), "<=");
  if (n == "gt" || n == "greaterthan" || n == ">") return Order(v, Other(a, "gt"), ">");
  if (n == "ge" || n == ">=") return Order(v, Other(a, "ge"), ">=");
  if (n == "in") return Contains(Other(a, "in"), v);
  if (n == "sameas") return SameAs(v, Other(a, "sameas"));
  if (n == "filter") return v.is_string() && IsKnownFilter(v.s());
  if (n == "test") return v.is_string() && IsKnownTest(v.s());
  Fail("TemplateRuntimeError", "No test named '" + name + "' found.");
}

bool IsKnownTest(std::string_view n) {
  static const char* const kTests[] = {
      "defined", "undefined", "none", "string", "mapping", "number", "integer", "float", "boolean", "true",
      "false", "callable", "escaped", "iterable", "sequence", "lower", "upper", "odd", "even", "divisibleby",
      "eq", "equalto", "==", "ne", "!=", "lt", "lessthan", "<", "le", "<=", "gt", "greaterthan", ">", "ge",
      ">=", "in", "sameas", "filter", "test"};
  for (const char* t : kTests) {
    if (n == t) return true;
  }
  return false;
}

}  // namespace mtok::chat
