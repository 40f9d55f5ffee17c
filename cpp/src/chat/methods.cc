// The Python str/dict/list methods the sandbox lets templates call
// (mutating ones are refused, as in ImmutableSandboxedEnvironment).
#include <cstring>

#include "chat/errors.h"
#include "chat/interpreter.h"
#include "chat/pystr.h"
#include "common/unicode.h"

namespace mtok::chat {
namespace {

using Impl = Value (*)(Interpreter&, const Value& self, const CallArgs&, const char* name);

Value Bind(const Value& self, const char* name, Impl impl) {
  auto fn = std::make_shared<Callable>();
  fn->name = std::string("built-in method ") + name + " of " + TypeName(self) + " object";
  fn->call = [self, name, impl](Interpreter& in, const CallArgs& args) { return impl(in, self, args, name); };
  return Value::MakeCallable(std::move(fn));
}

const Value* Arg(const CallArgs& a, size_t pos, const char* name) {
  if (pos < a.positional.size()) return &a.positional[pos];
  return name ? a.Named(name) : nullptr;
}

void MaxArgs(const CallArgs& a, size_t n, const char* name) {
  if (a.positional.size() + a.named.size() > n) {
    TypeFail(std::string(name) + "() takes at most " + std::to_string(n) + " argument(s) (" +
             std::to_string(a.positional.size() + a.named.size()) + " given)");
  }
}

const std::string* OptStr(const Value* v, const char* method) {
  if (v == nullptr || v->is_none()) return nullptr;
  if (!v->is_string()) TypeFail(std::string(method) + " arg must be None or str");
  return &v->s();
}

const std::string& NeedStr(const Value* v, const char* method) {
  if (v == nullptr) TypeFail(std::string(method) + "() missing a required argument");
  if (!v->is_string()) TypeFail("must be str, not " + TypeName(*v));
  (void)method;
  return v->s();
}

int64_t OptInt(const Value* v, int64_t dflt) {
  if (v == nullptr || v->is_none()) return dflt;
  if (!v->is_integral()) TypeFail("'" + TypeName(*v) + "' object cannot be interpreted as an integer");
  return v->as_int();
}

Value StrList(std::vector<std::string> parts) {
  List out;
  for (auto& p : parts) out.push_back(Value::Str(std::move(p)));
  return Value::MakeList(std::move(out));
}

Value StrMethod(Interpreter& in, const Value& self, const CallArgs& a, const char* name) {
  const std::string& s = self.s();
  std::string_view n(name);
  if (n == "strip" || n == "lstrip" || n == "rstrip") {
    MaxArgs(a, 1, name);
    return Value::Str(PyStrip(s, OptStr(Arg(a, 0, nullptr), name), n != "rstrip", n != "lstrip"));
  }
  if (n == "split" || n == "rsplit") {
    MaxArgs(a, 2, name);
    const std::string* sep = OptStr(Arg(a, 0, "sep"), name);
    int64_t maxsplit = OptInt(Arg(a, 1, "maxsplit"), -1);
    return StrList(n == "split" ? PySplit(s, sep, maxsplit) : PyRSplit(s, sep, maxsplit));
  }
  if (n == "startswith" || n == "endswith") {
    const Value* p = Arg(a, 0, nullptr);
    if (p == nullptr) TypeFail(std::string(name) + "() takes at least 1 argument (0 given)");
    List options = p->kind == Kind::kTuple ? p->list() : List{*p};
    for (const Value& o : options) {
      if (!o.is_string()) {
        TypeFail(std::string(name) + " first arg must be str or a tuple of str, not " + TypeName(o));
      }
      const std::string& x = o.s();
      bool hit = n == "startswith" ? s.compare(0, x.size(), x) == 0
                                   : s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
      if (hit) return Value::Bool(true);
    }
    return Value::Bool(false);
  }
  if (n == "upper") return Value::Str(PyUpper(s));
  if (n == "lower") return Value::Str(PyLower(s));
  if (n == "title") return Value::Str(PyTitle(s));
  if (n == "capitalize") return Value::Str(PyCapitalize(s));
  if (n == "replace") {
    const std::string& old = NeedStr(Arg(a, 0, nullptr), name);
    const std::string& repl = NeedStr(Arg(a, 1, nullptr), name);
    int64_t count = OptInt(Arg(a, 2, "count"), -1);
    std::string out = PyReplace(s, old, repl, count);
    in.CheckLength(CodePointCount(out), "str");
    return Value::Str(std::move(out));
  }
  if (n == "find" || n == "rfind" || n == "index" || n == "rindex" || n == "count") {
    const std::string& sub = NeedStr(Arg(a, 0, nullptr), name);
    if (n == "count") {
      if (sub.empty()) return Value::Int(static_cast<int64_t>(CodePointCount(s)) + 1);
      int64_t c = 0;
      for (size_t at = s.find(sub); at != std::string::npos; at = s.find(sub, at + sub.size())) ++c;
      return Value::Int(c);
    }
    size_t at = n[0] == 'r' ? s.rfind(sub) : s.find(sub);
    if (at == std::string::npos) {
      if (n == "index" || n == "rindex") Fail("ValueError", "substring not found");
      return Value::Int(-1);
    }
    return Value::Int(static_cast<int64_t>(CodePointCount(std::string_view(s).substr(0, at))));
  }
  if (n == "join") {
    const Value* items = Arg(a, 0, nullptr);
    if (items == nullptr) TypeFail("join() takes exactly one argument (0 given)");
    List parts = in.Iterate(*items);
    std::string out;
    for (size_t k = 0; k < parts.size(); ++k) {
      if (!parts[k].is_string()) {
        TypeFail("sequence item " + std::to_string(k) + ": expected str instance, " + TypeName(parts[k]) + " found");
      }
      if (k) out += s;
      out += parts[k].s();
      in.CheckLength(out.size(), "str");
    }
    return Value::Str(std::move(out));
  }
  if (n == "splitlines") {
    bool keep = Arg(a, 0, "keepends") && Truthy(*Arg(a, 0, "keepends"));
    std::u32string cps = ToCodePoints(s);
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t k = 0; k < cps.size(); ++k) {
      char32_t c = cps[k];
      bool brk = c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E ||
                 c == 0x85 || c == 0x2028 || c == 0x2029;
      if (!brk) continue;
      size_t end = k;
      if (c == '\r' && k + 1 < cps.size() && cps[k + 1] == '\n') ++k;
      lines.push_back(FromCodePoints(std::u32string_view(cps).substr(start, (keep ? k + 1 : end) - start)));
      start = k + 1;
    }
    if (start < cps.size()) lines.push_back(FromCodePoints(std::u32string_view(cps).substr(start)));
    return StrList(std::move(lines));
  }
  if (n.substr(0, 2) == "is") {
    std::u32string cps = ToCodePoints(s);
    if (cps.empty()) return Value::Bool(false);
    bool all = true, cased = false;
    for (char32_t c : cps) {
      unicode::Category cat = unicode::category(c);
      bool upper = cat == unicode::Category::Lu || cat == unicode::Category::Lt;
      bool lower = cat == unicode::Category::Ll;
      if (n == "isspace") all &= IsPySpace(c);
      else if (n == "isdigit" || n == "isdecimal") all &= cat == unicode::Category::Nd;
      else if (n == "isnumeric") all &= unicode::is_number(c);
      else if (n == "isalpha") all &= unicode::is_letter(c);
      else if (n == "isalnum") all &= unicode::is_letter(c) || unicode::is_number(c);
      else if (n == "isupper") { all &= !lower; cased |= upper; }
      else if (n == "islower") { all &= !upper; cased |= lower; }
    }
    if (n == "isupper" || n == "islower") return Value::Bool(all && cased);
    return Value::Bool(all);
  }
  if (n == "center" || n == "ljust" || n == "rjust" || n == "zfill") {
    int64_t width = OptInt(Arg(a, 0, nullptr), 0);
    in.CheckLength(static_cast<size_t>(width < 0 ? 0 : width), "str");
    std::string fill = " ";
    if (n == "zfill") fill = "0";
    if (const Value* f = Arg(a, 1, nullptr)) fill = NeedStr(f, name);
    int64_t len = static_cast<int64_t>(CodePointCount(s));
    if (width <= len) return Value::Str(s);
    int64_t pad = width - len;
    auto rep = [&](int64_t k) {
      std::string o;
      for (int64_t i = 0; i < k; ++i) o += fill;
      return o;
    };
    if (n == "ljust") return Value::Str(s + rep(pad));
    if (n == "rjust") return Value::Str(rep(pad) + s);
    if (n == "zfill") {
      if (!s.empty() && (s[0] == '-' || s[0] == '+')) return Value::Str(s.substr(0, 1) + rep(pad) + s.substr(1));
      return Value::Str(rep(pad) + s);
    }
    int64_t left = pad / 2 + (pad & width & 1);
    return Value::Str(rep(left) + s + rep(pad - left));
  }
  Fail("TemplateRuntimeError", "str." + std::string(name) + "() is not supported by the native chat template renderer");
}

Value DictMethod(Interpreter&, const Value& self, const CallArgs& a, const char* name) {
  std::string_view n(name);
  const Dict& d = self.dict();
  if (n == "get") {
    const Value* key = Arg(a, 0, nullptr);
    if (key == nullptr) TypeFail("get expected at least 1 argument, got 0");
    if (key->kind == Kind::kList || key->is_dict()) TypeFail("unhashable type: '" + TypeName(*key) + "'");
    const Value* v = d.Find(*key);
    if (v) return *v;
    const Value* dflt = Arg(a, 1, nullptr);
    return dflt ? *dflt : Value::None();
  }
  List out;
  for (const auto& kv : d.items) {
    if (n == "items") out.push_back(Value::MakeTuple({kv.first, kv.second}));
    else if (n == "keys") out.push_back(kv.first);
    else if (n == "values") out.push_back(kv.second);
  }
  if (n == "copy") return self;
  return Value::MakeList(std::move(out));
}

Value ListMethod(Interpreter&, const Value& self, const CallArgs& a, const char* name) {
  std::string_view n(name);
  const List& l = self.list();
  if (n == "copy") return Value::MakeList(l);
  const Value* x = Arg(a, 0, nullptr);
  if (x == nullptr) TypeFail(std::string(name) + "() takes exactly one argument (0 given)");
  int64_t count = 0;
  for (size_t k = 0; k < l.size(); ++k) {
    if (!Equal(l[k], *x)) continue;
    if (n == "index") return Value::Int(static_cast<int64_t>(k));
    ++count;
  }
  if (n == "index") Fail("ValueError", Repr(*x) + " is not in list");
  return Value::Int(count);
}

bool OneOf(const std::string& name, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (name == n) return true;
  }
  return false;
}

const char* Interned(const std::string& name, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (name == n) return n;
  }
  return nullptr;
}

Value Unsafe(const Value& obj, const std::string& name) {
  return Value::Undefined("access to attribute " + StrRepr(name) + " of " + StrRepr(TypeName(obj)) +
                              " object is unsafe.",
                          true);
}

}  // namespace

Value Method(const Value& obj, const std::string& name) {
  switch (obj.kind) {
    case Kind::kString:
      if (const char* n = Interned(name, {"strip", "lstrip", "rstrip", "split", "rsplit", "startswith", "endswith",
                                          "upper", "lower", "title", "capitalize", "replace", "find", "rfind",
                                          "index", "rindex", "count", "join", "splitlines", "isspace", "isdigit",
                                          "isdecimal", "isnumeric", "isalpha", "isalnum", "isupper", "islower",
                                          "center", "ljust", "rjust", "zfill", "format", "casefold", "swapcase",
                                          "partition", "rpartition", "encode", "expandtabs", "removeprefix",
                                          "removesuffix", "translate", "format_map", "istitle"})) {
        return Bind(obj, n, StrMethod);
      }
      return Value();
    case Kind::kDict:
      if (const char* n = Interned(name, {"get", "items", "keys", "values", "copy"})) return Bind(obj, n, DictMethod);
      if (OneOf(name, {"pop", "popitem", "setdefault", "update", "clear"})) return Unsafe(obj, name);
      return Value();
    case Kind::kList:
    case Kind::kTuple:
      if (const char* n = Interned(name, {"index", "count"})) return Bind(obj, n, ListMethod);
      if (obj.kind == Kind::kList) {
        if (name == "copy") return Bind(obj, "copy", ListMethod);
        if (OneOf(name, {"append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear"})) {
          return Unsafe(obj, name);
        }
      }
      return Value();
    default:
      return Value();
  }
}

}  // namespace mtok::chat
