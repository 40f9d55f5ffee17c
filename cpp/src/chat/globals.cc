// The template globals of the chat environment: jinja2's range, dict and
// namespace, and transformers' raise_exception and strftime_now.
#include <ctime>

#include "chat/errors.h"
#include "chat/interpreter.h"
#include "chat/pystr.h"

namespace mtok::chat {
namespace {

void Add(Dict* globals, const char* name, std::function<Value(Interpreter&, const CallArgs&)> fn) {
  auto c = std::make_shared<Callable>();
  c->name = std::string("function ") + name;
  c->call = std::move(fn);
  globals->Set(Value::Str(name), Value::MakeCallable(std::move(c)));
}

int64_t IntArg(const Value& v) {
  if (!v.is_integral()) TypeFail("'" + TypeName(v) + "' object cannot be interpreted as an integer");
  return v.as_int();
}

Value Range(Interpreter& in, const CallArgs& a) {
  if (!a.named.empty()) TypeFail("range() takes no keyword arguments");
  size_t n = a.positional.size();
  if (n == 0 || n > 3) TypeFail("range expected at most 3 arguments, got " + std::to_string(n));
  int64_t start = 0, stop, step = 1;
  if (n == 1) {
    stop = IntArg(a.positional[0]);
  } else {
    start = IntArg(a.positional[0]);
    stop = IntArg(a.positional[1]);
    if (n == 3) step = IntArg(a.positional[2]);
  }
  if (step == 0) Fail("ValueError", "range() arg 3 must not be zero");
  __int128 count = 0;
  if (step > 0 && stop > start) count = ((__int128)stop - start + step - 1) / step;
  if (step < 0 && stop < start) count = ((__int128)start - stop - step - 1) / -step;
  if (count > in.limits().max_range) {
    Fail("RenderLimitError", "range() of " + std::to_string(static_cast<int64_t>(count)) +
                                 " items is larger than the limit of " + std::to_string(in.limits().max_range));
  }
  List out;
  for (int64_t k = 0; k < static_cast<int64_t>(count); ++k) out.push_back(Value::Int(start + k * step));
  return Value::Range(start, stop, step, std::move(out));
}

// dict(mapping_or_pairs, **kwargs) and namespace(...) take the same arguments.
Dict DictFromArgs(Interpreter& in, const CallArgs& a, const char* who) {
  Dict d;
  if (a.positional.size() > 1) TypeFail(std::string(who) + " expected at most 1 argument, got " + std::to_string(a.positional.size()));
  if (!a.positional.empty()) {
    const Value& src = a.positional[0];
    if (src.is_dict()) {
      d = src.dict();
    } else if (src.kind == Kind::kNamespace) {
      d = src.ns().attrs;
    } else {
      for (const Value& pair : in.Iterate(src)) {
        List kv = in.Iterate(pair);
        if (kv.size() != 2) {
          Fail("ValueError", "dictionary update sequence element has length " + std::to_string(kv.size()) + "; 2 is required");
        }
        d.Set(kv[0], kv[1]);
      }
    }
  }
  for (const auto& kv : a.named) d.Set(Value::Str(kv.first), kv.second);
  return d;
}

Value StrftimeNow(Interpreter& in, const CallArgs& a) {
  if (a.positional.size() != 1 || !a.positional[0].is_string()) TypeFail("strftime_now() takes a format string");
  std::tm now = in.Now();
  const std::string& fmt = a.positional[0].s();
  if (fmt.empty()) return Value::Str("");
  std::string buf(256 + fmt.size() * 8, '\0');
  size_t n = std::strftime(&buf[0], buf.size(), fmt.c_str(), &now);
  buf.resize(n);
  return Value::Str(std::move(buf));
}

}  // namespace

void AddGlobals(Dict* g) {
  Add(g, "range", Range);
  Add(g, "dict", [](Interpreter& in, const CallArgs& a) { return Value::MakeDict(DictFromArgs(in, a, "dict")); });
  {
    // dict.fromkeys(keys, value=None): the global is a callable with that attribute.
    auto fromkeys = std::make_shared<Callable>();
    fromkeys->name = "built-in method fromkeys of type object";
    fromkeys->call = [](Interpreter& in, const CallArgs& a) {
      if (a.positional.empty() || a.positional.size() > 2) TypeFail("fromkeys expected 1 or 2 arguments");
      Dict d;
      for (const Value& k : in.Iterate(a.positional[0])) d.Set(k, a.positional.size() > 1 ? a.positional[1] : Value::None());
      return Value::MakeDict(std::move(d));
    };
    Dict attrs;
    attrs.Set(Value::Str("fromkeys"), Value::MakeCallable(std::move(fromkeys)));
    auto dict = std::make_shared<Callable>(g->Find(std::string_view("dict"))->fn());
    dict->attrs = std::make_shared<const Dict>(std::move(attrs));
    dict->type_name = "_DictFactory";
    g->Set(Value::Str("dict"), Value::MakeCallable(std::move(dict)));
  }
  Add(g, "namespace", [](Interpreter& in, const CallArgs& a) {
    auto ns = std::make_shared<Namespace>();
    ns->attrs = DictFromArgs(in, a, "namespace");
    for (const auto& kv : ns->attrs.items) {
      if (kv.first.is_string() && !kv.first.s().empty() && kv.first.s()[0] == '_') {
        Fail("SecurityError", "Chat templates cannot store underscore-prefixed attributes on a namespace, but got " +
                                  StrRepr(kv.first.s()) + ". Please rename the attribute.");
      }
    }
    return Value::MakeNamespace(std::move(ns));
  });
  Add(g, "raise_exception", [](Interpreter&, const CallArgs& a) -> Value {
    const Value* m = a.positional.empty() ? a.Named("message") : &a.positional[0];
    if (!m) TypeFail("raise_exception() missing 1 required positional argument: 'message'");
    Fail("raise_exception", ToStr(*m));
  });
  Add(g, "strftime_now", StrftimeNow);
  for (const char* name : {"lipsum", "cycler", "joiner"}) {
    std::string n = name;
    Add(g, name, [n](Interpreter&, const CallArgs&) -> Value {
      Fail("TemplateRuntimeError", n + "() is not supported by the native chat template renderer");
    });
  }
}

}  // namespace mtok::chat
