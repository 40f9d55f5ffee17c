// Attribute and item access, and iteration, as jinja2's sandbox does them.
#include "chat/errors.h"
#include "chat/interpreter.h"
#include "chat/pystr.h"

namespace mtok::chat {
namespace {

Value NoAttribute(const Value& obj, const std::string& name) {
  return Value::Undefined(StrRepr(ObjectTypeRepr(obj)) + " has no attribute " + StrRepr(name));
}

Value NoElement(const Value& obj, const Value& key) {
  return Value::Undefined(ObjectTypeRepr(obj) + " has no element " + Repr(key));
}

// getattr(obj, name) for a str key; Undefined (without info) when absent.
Value PythonAttribute(const Value& obj, const std::string& name) {
  if (obj.kind == Kind::kNamespace || (obj.kind == Kind::kCallable && obj.fn().attrs)) {
    const Dict& attrs = obj.kind == Kind::kNamespace ? obj.ns().attrs : *obj.fn().attrs;
    const Value* v = attrs.Find(std::string_view(name));
    return v ? *v : Value();
  }
  return Method(obj, name);
}

}  // namespace

Value Interpreter::GetAttr(const Value& obj, const std::string& name) {
  if (obj.is_undefined()) UndefinedFail(obj);
  if (name.size() >= 2 && name[0] == '_' && name[1] == '_') {
    Fail("SecurityError", "access to attribute " + StrRepr(name) + " of " + StrRepr(TypeName(obj)) + " object is unsafe.");
  }
  Value attr = PythonAttribute(obj, name);
  if (!attr.is_undefined() || attr.ptr) return attr;
  if (obj.is_dict()) {
    const Value* v = obj.dict().Find(std::string_view(name));
    if (v) return *v;
  }
  return NoAttribute(obj, name);
}

Value Interpreter::GetItem(const Value& obj, const Value& key) {
  if (obj.is_undefined()) UndefinedFail(obj);
  switch (obj.kind) {
    case Kind::kDict:
      if (key.kind != Kind::kList && !key.is_dict()) {
        if (const Value* v = obj.dict().Find(key)) return *v;
      }
      break;
    case Kind::kList:
    case Kind::kTuple:
    case Kind::kString:
      if (key.is_integral() && !obj.iterator) {
        int64_t n = Length(obj);
        int64_t k = key.as_int();
        if (k < 0) k += n;
        if (k < 0 || k >= n) return NoElement(obj, key);
        if (!obj.is_string()) return obj.list()[k];
        return SliceValue(obj, Value::Int(k), Value::Int(k + 1), Value::None());
      }
      break;
    default:
      break;
  }
  if (key.is_string()) {
    if (key.s().size() >= 2 && key.s()[0] == '_' && key.s()[1] == '_') {
      Fail("SecurityError", "access to attribute " + StrRepr(key.s()) + " of " + StrRepr(TypeName(obj)) + " object is unsafe.");
    }
    Value attr = PythonAttribute(obj, key.s());
    if (!attr.is_undefined() || attr.ptr) return attr;
    return NoAttribute(obj, key.s());
  }
  return NoElement(obj, key);
}

List Interpreter::Iterate(const Value& v) {
  switch (v.kind) {
    case Kind::kList:
    case Kind::kTuple:
      return v.list();
    case Kind::kDict: {
      List keys;
      for (const auto& kv : v.dict().items) keys.push_back(kv.first);
      return keys;
    }
    case Kind::kString: {
      List chars;
      const std::string& s = v.s();
      for (size_t i = 0; i < s.size();) {
        size_t len = 1;
        while (i + len < s.size() && (static_cast<unsigned char>(s[i + len]) & 0xC0) == 0x80) ++len;
        chars.push_back(Value::Str(s.substr(i, len), v.markup));
        i += len;
      }
      return chars;
    }
    case Kind::kUndefined:
      return {};
    default:
      TypeFail(StrRepr(TypeName(v)) + " object is not iterable");
  }
}

}  // namespace mtok::chat
