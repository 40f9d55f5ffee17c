// The values a chat template computes with: Python's None/bool/int/float/
// str/list/tuple/dict as jinja2 sees them, plus jinja2's Undefined, Markup
// (a str marked safe), namespace() objects and callables (macros, builtins,
// bound methods).
//
// Lists, tuples and dicts are immutable once built (the sandbox refuses
// append/update/...), so they are shared by pointer and copying a Value is
// cheap. namespace() objects are the one mutable, shared-by-reference kind.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mtok::chat {

enum class Kind : uint8_t {
  kUndefined, kNone, kBool, kInt, kFloat, kString, kList, kTuple, kDict, kNamespace, kCallable,
};

struct Value;
using List = std::vector<Value>;
struct Dict;
struct Namespace;
struct Callable;

// Why a value is undefined: the message jinja2's UndefinedError carries when
// the value is used, and whether using it is a SecurityError instead.
struct UndefinedInfo {
  std::string message;
  bool security = false;
};

struct Value {
  Kind kind = Kind::kUndefined;
  bool markup = false;    // kString: jinja2 Markup (from |safe, |tojson|safe ...)
  bool iterator = false;  // kList: a generator (from |map, |select ...): no len(), not JSON
  bool range = false;     // kList: a range() object (ptr is a RangeList)
  union {
    bool b;
    int64_t i;
    double f;
  };
  std::shared_ptr<const void> ptr;  // string, list, dict, namespace, callable, undefined info

  Value() : i(0) {}
  static Value None() { Value v; v.kind = Kind::kNone; return v; }
  static Value Bool(bool x) { Value v; v.kind = Kind::kBool; v.b = x; return v; }
  static Value Int(int64_t x) { Value v; v.kind = Kind::kInt; v.i = x; return v; }
  static Value Float(double x) { Value v; v.kind = Kind::kFloat; v.f = x; return v; }
  static Value Str(std::string s, bool markup = false);
  static Value MakeList(List items);
  static Value MakeTuple(List items);
  static Value MakeDict(Dict d);
  static Value MakeNamespace(std::shared_ptr<Namespace> ns);
  static Value MakeCallable(std::shared_ptr<const Callable> fn);
  static Value Undefined(std::string message, bool security = false);
  static Value Range(int64_t start, int64_t stop, int64_t step, List items);

  bool is_undefined() const { return kind == Kind::kUndefined; }
  bool is_none() const { return kind == Kind::kNone; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_list_like() const { return kind == Kind::kList || kind == Kind::kTuple; }
  // A list or tuple proper (not a generator or range): what + and * accept.
  bool is_plain_sequence() const { return is_list_like() && !iterator && !range; }
  bool is_dict() const { return kind == Kind::kDict; }
  bool is_number() const { return kind == Kind::kBool || kind == Kind::kInt || kind == Kind::kFloat; }
  bool is_integral() const { return kind == Kind::kBool || kind == Kind::kInt; }

  const std::string& s() const { return *static_cast<const std::string*>(ptr.get()); }
  const List& list() const { return *static_cast<const List*>(ptr.get()); }
  const Dict& dict() const { return *static_cast<const Dict*>(ptr.get()); }
  Namespace& ns() const { return *static_cast<Namespace*>(const_cast<void*>(ptr.get())); }
  const Callable& fn() const { return *static_cast<const Callable*>(ptr.get()); }
  const UndefinedInfo* undefined_info() const { return static_cast<const UndefinedInfo*>(ptr.get()); }

  int64_t as_int() const { return kind == Kind::kBool ? (b ? 1 : 0) : i; }
  double as_double() const { return kind == Kind::kFloat ? f : static_cast<double>(as_int()); }
};

// A dict in insertion order. Keys compare with Python's ==; lookups scan
// (template dicts are small) except for string keys, which dominate and are
// compared bytewise first.
struct Dict {
  std::vector<std::pair<Value, Value>> items;
  const Value* Find(const Value& key) const;
  const Value* Find(std::string_view key) const;
  void Set(Value key, Value value);  // replaces in place, else appends
  size_t size() const { return items.size(); }
};

struct Namespace {
  Dict attrs;
};

// range(start, stop, step): its items and its arguments (for its repr).
// Standard layout with the items first, so Value::list() reads it as a List.
struct RangeList {
  List items;
  int64_t start, stop, step;
};

class Interpreter;
struct CallArgs {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> named;
  const Value* Named(std::string_view name) const;
};

// Something a template may call: a builtin (function, bound method) or a macro.
struct Callable {
  std::string name;  // for reprs and errors
  std::function<Value(Interpreter&, const CallArgs&)> call;
  // Attributes, for objects that are callable and have some (a loop's
  // `loop`: loop.index ..., and loop(children) in recursive loops).
  std::shared_ptr<const Dict> attrs;
  std::string type_name;  // Python type name when attrs is set ("LoopContext")
};

// Python's ==, as jinja2 evaluates it (Undefined == Undefined is True).
bool Equal(const Value& a, const Value& b);
// Python's bool(x) (Undefined is False).
bool Truthy(const Value& v);
// Python's type name ("str", "int", "dict", "Undefined" ...).
std::string TypeName(const Value& v);
// jinja2's object_type_repr: "dict object", "None", ...
std::string ObjectTypeRepr(const Value& v);

}  // namespace mtok::chat
