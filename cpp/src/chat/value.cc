#include "chat/value.h"

#include "chat/pystr.h"

namespace mtok::chat {

Value Value::Str(std::string s, bool markup) {
  Value v;
  v.kind = Kind::kString;
  v.markup = markup;
  v.ptr = std::make_shared<const std::string>(std::move(s));
  return v;
}

Value Value::MakeList(List items) {
  Value v;
  v.kind = Kind::kList;
  v.ptr = std::make_shared<const List>(std::move(items));
  return v;
}

Value Value::MakeTuple(List items) {
  Value v = MakeList(std::move(items));
  v.kind = Kind::kTuple;
  return v;
}

Value Value::MakeDict(Dict d) {
  Value v;
  v.kind = Kind::kDict;
  v.ptr = std::make_shared<const Dict>(std::move(d));
  return v;
}

Value Value::MakeNamespace(std::shared_ptr<Namespace> ns) {
  Value v;
  v.kind = Kind::kNamespace;
  v.ptr = std::move(ns);
  return v;
}

Value Value::MakeCallable(std::shared_ptr<const Callable> fn) {
  Value v;
  v.kind = Kind::kCallable;
  v.ptr = std::move(fn);
  return v;
}

Value Value::Range(int64_t start, int64_t stop, int64_t step, List items) {
  Value v;
  v.kind = Kind::kList;
  v.range = true;
  v.ptr = std::make_shared<const RangeList>(RangeList{std::move(items), start, stop, step});
  return v;
}

Value Value::Undefined(std::string message, bool security) {
  Value v;
  v.ptr = std::make_shared<const UndefinedInfo>(UndefinedInfo{std::move(message), security});
  return v;
}

const Value* Dict::Find(std::string_view key) const {
  for (const auto& kv : items) {
    if (kv.first.kind == Kind::kString && kv.first.s() == key) return &kv.second;
  }
  return nullptr;
}

const Value* Dict::Find(const Value& key) const {
  if (key.kind == Kind::kString) return Find(std::string_view(key.s()));
  for (const auto& kv : items) {
    if (Equal(kv.first, key)) return &kv.second;
  }
  return nullptr;
}

void Dict::Set(Value key, Value value) {
  for (auto& kv : items) {
    if (Equal(kv.first, key)) {
      kv.second = std::move(value);
      return;
    }
  }
  items.emplace_back(std::move(key), std::move(value));
}

const Value* CallArgs::Named(std::string_view name) const {
  for (const auto& kv : named) {
    if (kv.first == name) return &kv.second;
  }
  return nullptr;
}

bool Equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.kind == Kind::kFloat || b.kind == Kind::kFloat) return a.as_double() == b.as_double();
    return a.as_int() == b.as_int();
  }
  if (a.kind != b.kind || a.range != b.range) return false;
  if (a.iterator || b.iterator) return a.ptr == b.ptr;
  switch (a.kind) {
    case Kind::kUndefined:
    case Kind::kNone:
      return true;
    case Kind::kString:
      return a.s() == b.s();
    case Kind::kList:
    case Kind::kTuple: {
      const List& x = a.list();
      const List& y = b.list();
      if (x.size() != y.size()) return false;
      for (size_t k = 0; k < x.size(); ++k) {
        if (!Equal(x[k], y[k])) return false;
      }
      return true;
    }
    case Kind::kDict: {
      const Dict& x = a.dict();
      const Dict& y = b.dict();
      if (x.size() != y.size()) return false;
      for (const auto& kv : x.items) {
        const Value* other = y.Find(kv.first);
        if (other == nullptr || !Equal(kv.second, *other)) return false;
      }
      return true;
    }
    default:
      return a.ptr == b.ptr;  // namespaces and callables: identity
  }
}

bool Truthy(const Value& v) {
  switch (v.kind) {
    case Kind::kUndefined:
    case Kind::kNone:
      return false;
    case Kind::kBool:
      return v.b;
    case Kind::kInt:
      return v.i != 0;
    case Kind::kFloat:
      return v.f != 0.0;
    case Kind::kString:
      return !v.s().empty();
    case Kind::kList:
    case Kind::kTuple:
      return v.iterator || !v.list().empty();
    case Kind::kDict:
      return v.dict().size() != 0;
    default:
      return true;
  }
}

std::string TypeName(const Value& v) {
  switch (v.kind) {
    case Kind::kUndefined: return "Undefined";
    case Kind::kNone: return "NoneType";
    case Kind::kBool: return "bool";
    case Kind::kInt: return "int";
    case Kind::kFloat: return "float";
    case Kind::kString: return v.markup ? "Markup" : "str";
    case Kind::kList: return v.iterator ? "generator" : v.range ? "range" : "list";
    case Kind::kTuple: return "tuple";
    case Kind::kDict: return "dict";
    case Kind::kNamespace: return "SafeNamespace";
    case Kind::kCallable:
      if (!v.fn().type_name.empty()) return v.fn().type_name;
      return v.fn().name.rfind("macro:", 0) == 0 ? "Macro" : "builtin_function_or_method";
  }
  return "object";
}

std::string ObjectTypeRepr(const Value& v) {
  if (v.is_none()) return "None";
  if (v.kind == Kind::kString && v.markup) return "markupsafe.Markup object";
  if (v.kind == Kind::kNamespace) return "mtok.chat.environment.SafeNamespace object";
  if (v.kind == Kind::kUndefined) return "jinja2.runtime.Undefined object";
  if (v.kind == Kind::kCallable && v.fn().type_name == "LoopContext") return "jinja2.runtime.LoopContext object";
  return TypeName(v) + " object";
}

}  // namespace mtok::chat
