// jinja2's builtin filters on strings and scalars, the filter registry,
// and mtok's tojson (plain json.dumps, as transformers defines it).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "chat/errors.h"
#include "chat/filters.h"
#include "chat/json.h"
#include "chat/parser.h"
#include "chat/pystr.h"
#include "common/unicode.h"
#include "common/utf8.h"

namespace mtok::chat {

const Value* Param(const CallArgs& a, size_t pos, const char* name) {
  if (pos < a.positional.size()) return &a.positional[pos];
  return name ? a.Named(name) : nullptr;
}

Value SoftStr(const Value& v) { return v.is_string() ? v : Value::Str(ToStr(v)); }

Value Generator(List items) {
  Value v = Value::MakeList(std::move(items));
  v.iterator = true;
  return v;
}

namespace {

Value Tojson(Interpreter&, const Value& v, const CallArgs& a) {
  JsonDumpOptions o;
  if (const Value* x = Param(a, 0, "ensure_ascii")) o.ensure_ascii = Truthy(*x);
  const Value* indent = Param(a, 1, "indent");
  if (indent && !indent->is_none()) {
    o.has_indent = true;
    if (indent->is_string()) {
      o.indent = indent->s();
    } else if (indent->is_integral()) {
      int64_t n = indent->as_int();
      if (n > 1000) Fail("RenderLimitError", "tojson indent is larger than the limit of 1000");
      o.indent = std::string(n > 0 ? n : 0, ' ');
    } else {
      TypeFail("can't multiply sequence by non-int of type '" + TypeName(*indent) + "'");
    }
  }
  o.item_separator = o.has_indent ? "," : ", ";
  if (const Value* sep = Param(a, 2, "separators"); sep && !sep->is_none()) {
    if (!sep->is_list_like() || sep->list().size() != 2 || !sep->list()[0].is_string() || !sep->list()[1].is_string()) {
      Fail("ValueError", "separators must be a pair of strings");
    }
    o.item_separator = sep->list()[0].s();
    o.key_separator = sep->list()[1].s();
  }
  if (const Value* x = Param(a, 3, "sort_keys")) o.sort_keys = Truthy(*x);
  return Value::Str(DumpJson(v, o));
}

Value Trim(Interpreter&, const Value& v, const CallArgs& a) {
  const Value* chars = Param(a, 0, "chars");
  if (chars && !chars->is_none() && !chars->is_string()) TypeFail("strip arg must be None or str");
  const std::string* set = chars && chars->is_string() ? &chars->s() : nullptr;
  Value s = SoftStr(v);
  return Value::Str(PyStrip(s.s(), set, true, true), s.markup);
}

Value Default(Interpreter&, const Value& v, const CallArgs& a) {
  const Value* dflt = Param(a, 0, "default_value");
  const Value* boolean = Param(a, 1, "boolean");
  if (v.is_undefined() || (boolean && Truthy(*boolean) && !Truthy(v))) return dflt ? *dflt : Value::Str("");
  return v;
}

Value Length(Interpreter&, const Value& v, const CallArgs&) { return Value::Int(Length(v)); }
Value String(Interpreter&, const Value& v, const CallArgs&) { return SoftStr(v); }
Value Lower(Interpreter&, const Value& v, const CallArgs&) { return Value::Str(PyLower(SoftStr(v).s())); }
Value Upper(Interpreter&, const Value& v, const CallArgs&) { return Value::Str(PyUpper(SoftStr(v).s())); }
Value Title(Interpreter&, const Value& v, const CallArgs&) { return Value::Str(PyTitle(SoftStr(v).s())); }
Value Capitalize(Interpreter&, const Value& v, const CallArgs&) { return Value::Str(PyCapitalize(SoftStr(v).s())); }
Value Safe(Interpreter&, const Value& v, const CallArgs&) { return Value::Str(ToStr(v), true); }

Value Escape(Interpreter&, const Value& v, const CallArgs&) {
  if (v.is_string() && v.markup) return v;
  return Value::Str(HtmlEscape(ToStr(v)), true);
}

Value Replace(Interpreter& in, const Value& v, const CallArgs& a) {
  const Value* old = Param(a, 0, "old");
  const Value* repl = Param(a, 1, "new");
  const Value* count = Param(a, 2, "count");
  if (!old || !repl) TypeFail("do_replace() missing required arguments 'old' and 'new'");
  int64_t n = -1;
  if (count && !count->is_none()) {
    if (!count->is_integral()) TypeFail("'" + TypeName(*count) + "' object cannot be interpreted as an integer");
    n = count->as_int();
  }
  std::string out = PyReplace(ToStr(v), ToStr(*old), ToStr(*repl), n);
  in.CheckLength(CodePointCount(out), "str");
  return Value::Str(std::move(out));
}

// Python's int(str): optional sign, digits with single underscores, spaces around.
bool ParseIntText(const std::string& text, int64_t base, int64_t* out) {
  std::string t = PyStrip(text, nullptr, true, true);
  size_t i = 0;
  bool neg = false;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
  if (base == 16 && t.compare(i, 2, "0x") == 0) i += 2;
  if (i >= t.size()) return false;
  unsigned __int128 v = 0;
  bool prev_digit = false;
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (c == '_' && prev_digit && i + 1 < t.size() && t[i + 1] != '_') {
      prev_digit = false;
      continue;
    }
    int d = c >= '0' && c <= '9' ? c - '0' : ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? (c | 0x20) - 'a' + 10 : 99;
    if (d >= base) return false;
    v = v * base + d;
    if (v > static_cast<unsigned __int128>(INT64_MAX)) Fail("OverflowError", "integer out of the 64-bit range");
    prev_digit = true;
  }
  if (!prev_digit) return false;
  *out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

bool ParseFloatText(const std::string& text, double* out) {
  std::string t = PyStrip(text, nullptr, true, true);
  std::string lower = PyLower(t);
  std::string body = lower[0] == '+' || lower[0] == '-' ? lower.substr(1) : lower;
  double sign = !lower.empty() && lower[0] == '-' ? -1.0 : 1.0;
  if (body == "inf" || body == "infinity") return *out = sign * HUGE_VAL, true;
  if (body == "nan") return *out = NAN, true;
  if (t.empty() || t.find_first_not_of("0123456789+-.eE_") != std::string::npos) return false;
  std::string clean;
  for (char c : t) {
    if (c != '_') clean.push_back(c);
  }
  char* end = nullptr;
  double d = std::strtod(clean.c_str(), &end);
  if (end == clean.c_str() || *end != 0) return false;
  *out = d;
  return true;
}

Value Int(Interpreter&, const Value& v, const CallArgs& a) {
  const Value* dflt = Param(a, 0, "default");
  const Value* basev = Param(a, 1, "base");
  int64_t base = basev && basev->is_integral() ? basev->as_int() : 10;
  Value fallback = dflt ? *dflt : Value::Int(0);
  if (v.is_undefined()) UndefinedFail(v);
  if (v.is_integral()) return Value::Int(v.as_int());
  if (v.kind == Kind::kFloat) {
    if (std::isnan(v.f) || std::isinf(v.f)) return fallback;
    return Value::Int(static_cast<int64_t>(v.f));
  }
  if (v.is_string()) {
    int64_t n;
    if (ParseIntText(v.s(), base, &n)) return Value::Int(n);
    double d;
    if (ParseFloatText(v.s(), &d) && !std::isnan(d) && !std::isinf(d)) return Value::Int(static_cast<int64_t>(d));
  }
  return fallback;
}

Value Float(Interpreter&, const Value& v, const CallArgs& a) {
  const Value* dflt = Param(a, 0, "default");
  Value fallback = dflt ? *dflt : Value::Float(0.0);
  if (v.is_undefined()) UndefinedFail(v);
  if (v.is_number()) return Value::Float(v.as_double());
  double d;
  if (v.is_string() && ParseFloatText(v.s(), &d)) return Value::Float(d);
  return fallback;
}

Value Abs(Interpreter&, const Value& v, const CallArgs&) {
  if (v.kind == Kind::kFloat) return Value::Float(std::fabs(v.f));
  if (v.is_integral()) return Value::Int(v.as_int() < 0 ? -v.as_int() : v.as_int());
  if (v.is_undefined()) UndefinedFail(v);
  TypeFail("bad operand type for abs(): '" + TypeName(v) + "'");
}

Value Round(Interpreter&, const Value& v, const CallArgs& a) {
  const Value* precision = Param(a, 0, "precision");
  const Value* method = Param(a, 1, "method");
  int64_t p = precision && precision->is_integral() ? precision->as_int() : 0;
  std::string m = method && method->is_string() ? method->s() : "common";
  if (m != "common" && m != "ceil" && m != "floor") Fail("FilterArgumentError", "method must be common, ceil or floor");
  if (v.is_undefined()) UndefinedFail(v);
  if (!v.is_number()) TypeFail("type " + TypeName(v) + " doesn't define __round__ method");
  if (m == "common") {
    if (v.is_integral()) return Value::Int(v.as_int());
    if (p < 0 || p > 300) Fail("ValueError", "round() precision out of the supported range");
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(p), v.f);  // correctly rounded, half to even
    return Value::Float(std::strtod(buf, nullptr));
  }
  double scale = std::pow(10.0, static_cast<double>(p));
  double x = v.as_double() * scale;
  return Value::Float((m == "ceil" ? std::ceil(x) : std::floor(x)) / scale);
}

Value Indent(Interpreter& in, const Value& v, const CallArgs& a) {
  const Value* width = Param(a, 0, "width");
  const Value* first = Param(a, 1, "first");
  const Value* blank = Param(a, 2, "blank");
  std::string indention = "    ";
  if (width && width->is_string()) {
    indention = width->s();
  } else if (width && width->is_integral()) {
    in.CheckLength(static_cast<size_t>(std::max<int64_t>(width->as_int(), 0)), "str");
    indention = std::string(static_cast<size_t>(std::max<int64_t>(width->as_int(), 0)), ' ');
  }
  std::string s = ToStr(v) + "\n";
  CallArgs none;
  Value lines_v = Method(Value::Str(s), "splitlines").fn().call(in, none);
  const List& lines = lines_v.list();
  std::string rv;
  if (blank && Truthy(*blank)) {
    for (size_t k = 0; k < lines.size(); ++k) rv += (k ? "\n" + indention : "") + lines[k].s();
  } else {
    rv = lines.empty() ? "" : lines[0].s();
    for (size_t k = 1; k < lines.size(); ++k) rv += "\n" + (lines[k].s().empty() ? "" : indention) + lines[k].s();
  }
  if (first && Truthy(*first)) rv = indention + rv;
  return Value::Str(std::move(rv));
}

Value Center(Interpreter& in, const Value& v, const CallArgs& a) {
  CallArgs args;
  const Value* width = Param(a, 0, "width");
  args.positional.push_back(width ? *width : Value::Int(80));
  return Method(Value::Str(ToStr(v)), "center").fn().call(in, args);
}

Value Wordcount(Interpreter&, const Value& v, const CallArgs&) {
  std::string s = ToStr(v);
  int64_t words = 0;
  bool in_word = false;
  for (size_t i = 0; i < s.size();) {
    int len = 1;
    char32_t c = utf8::decode(s, i, &len);
    bool w = c == '_' || unicode::is_letter(c) || unicode::is_number(c) || unicode::is_mark(c);
    if (w && !in_word) ++words;
    in_word = w;
    i += len;
  }
  return Value::Int(words);
}

Value Format(Interpreter& in, const Value& v, const CallArgs& a) {
  if (!a.named.empty() && !a.positional.empty()) {
    Fail("FilterArgumentError", "can't handle positional and keyword arguments at the same time");
  }
  Value args;
  if (!a.named.empty()) {
    Dict d;
    for (const auto& kv : a.named) d.Set(Value::Str(kv.first), kv.second);
    args = Value::MakeDict(std::move(d));
  } else {
    args = Value::MakeTuple(a.positional);
  }
  return BinaryOp(in, "%", SoftStr(v), args);
}

Value Truncate(Interpreter&, const Value& v, const CallArgs& a) {
  const Value* lengthv = Param(a, 0, "length");
  const Value* killv = Param(a, 1, "killwords");
  const Value* endv = Param(a, 2, "end");
  const Value* leewayv = Param(a, 3, "leeway");
  int64_t length = lengthv && lengthv->is_integral() ? lengthv->as_int() : 255;
  bool killwords = killv && Truthy(*killv);
  std::string end = endv ? ToStr(*endv) : "...";
  int64_t leeway = leewayv && leewayv->is_integral() ? leewayv->as_int() : 5;
  std::u32string s = ToCodePoints(ToStr(v));
  int64_t end_len = static_cast<int64_t>(CodePointCount(end));
  if (length < end_len) Fail("AssertionError", "expected length >= " + std::to_string(end_len) + ", got " + std::to_string(length));
  if (leeway < 0) Fail("AssertionError", "expected leeway >= 0, got " + std::to_string(leeway));
  if (static_cast<int64_t>(s.size()) <= length + leeway) return Value::Str(FromCodePoints(s));
  std::u32string cut = s.substr(0, length - end_len);
  if (killwords) return Value::Str(FromCodePoints(cut) + end);
  size_t space = cut.rfind(U' ');
  std::u32string kept = space == std::u32string::npos ? std::u32string() : cut.substr(0, space);
  return Value::Str(FromCodePoints(kept) + end);
}

Value Attr(Interpreter& in, const Value& v, const CallArgs& a) {
  const Value* name = Param(a, 0, "name");
  if (!name || !name->is_string()) TypeFail("attr() needs an attribute name");
  return in.GetAttr(v, name->s());
}

Value Identity(Interpreter&, const Value& v, const CallArgs&) { return v; }

struct Entry {
  const char* name;
  FilterFn fn;
};

const Entry kFilters[] = {
    {"tojson", Tojson},   {"trim", Trim},       {"default", Default},       {"d", Default},
    {"length", Length},   {"count", Length},    {"string", String},         {"lower", Lower},
    {"upper", Upper},     {"title", Title},     {"capitalize", Capitalize}, {"safe", Safe},
    {"escape", Escape},   {"e", Escape},        {"forceescape", Escape},    {"replace", Replace},
    {"int", Int},         {"float", Float},     {"abs", Abs},               {"round", Round},
    {"indent", Indent},   {"center", Center},   {"wordcount", Wordcount},   {"format", Format},
    {"truncate", Truncate}, {"attr", Attr},     {"mtok_guard_iter", Identity}, {"mtok_guard_size", Identity},
};

// Real jinja2 filters this engine does not implement: known at parse time
// (a template using them compiles), a clear error when they run.
const char* const kUnsupported[] = {"filesizeformat", "groupby", "pprint", "random", "striptags", "urlencode",
                                    "urlize", "wordwrap", "xmlattr"};

}  // namespace

bool IsKnownFilter(std::string_view name) {
  for (const Entry& e : kFilters) {
    if (name == e.name) return true;
  }
  for (const char* n : kUnsupported) {
    if (name == n) return true;
  }
  return FindSequenceFilter(std::string(name)) != nullptr;
}

Value Interpreter::ApplyFilter(const std::string& name, const Value& input, const CallArgs& args, bool soft) {
  Step();
  for (const Entry& e : kFilters) {
    if (name == e.name) return e.fn(*this, input, args);
  }
  if (FilterFn fn = FindSequenceFilter(name)) return fn(*this, input, args);
  for (const char* n : kUnsupported) {
    if (name == n) Fail("TemplateRuntimeError", "the filter '" + name + "' is not supported by the native chat template renderer");
  }
  (void)soft;
  Fail("TemplateRuntimeError", "No filter named '" + name + "' found.");
}

}  // namespace mtok::chat
