// Python's operators on template values.
#include <cmath>

#include "chat/errors.h"
#include "chat/interpreter.h"
#include "chat/pystr.h"

namespace mtok::chat {
namespace {

[[noreturn]] void Unsupported(const std::string& op, const Value& a, const Value& b) {
  TypeFail("unsupported operand type(s) for " + op + ": '" + TypeName(a) + "' and '" + TypeName(b) + "'");
}

[[noreturn]] void Overflow() { Fail("OverflowError", "integer result out of the 64-bit range of the native renderer"); }

int64_t CheckedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) Overflow();
  return r;
}

void CheckRepeat(Interpreter& in, int64_t length, int64_t times) {
  int64_t size = CheckedMul(length, times);
  if (size > in.limits().max_sequence_length) {
    Fail("RenderLimitError", "template repetition would build a sequence of length " + std::to_string(size) +
                                 ", more than the limit of " + std::to_string(in.limits().max_sequence_length));
  }
}

Value Repeat(Interpreter& in, const Value& seq, int64_t times) {
  if (times < 0) times = 0;
  if (seq.is_string()) {
    CheckRepeat(in, static_cast<int64_t>(CodePointCount(seq.s())), times);
    std::string out;
    for (int64_t k = 0; k < times; ++k) out += seq.s();
    return Value::Str(std::move(out));
  }
  CheckRepeat(in, static_cast<int64_t>(seq.list().size()), times);
  List out;
  for (int64_t k = 0; k < times; ++k) out.insert(out.end(), seq.list().begin(), seq.list().end());
  return seq.kind == Kind::kTuple ? Value::MakeTuple(std::move(out)) : Value::MakeList(std::move(out));
}

double FloorMod(double a, double b) {
  double m = std::fmod(a, b);
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  if (m == 0) m = std::copysign(0.0, b);
  return m;
}

// printf-style str % args, for the conversions templates use.
std::string PercentFormat(const std::string& fmt, const Value& args) {
  List values = args.kind == Kind::kTuple ? args.list() : List{args};
  size_t next = 0;
  std::string out;
  auto take = [&]() -> const Value& {
    if (next >= values.size()) TypeFail("not enough arguments for format string");
    return values[next++];
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out.push_back(fmt[i]);
      continue;
    }
    if (++i >= fmt.size()) Fail("ValueError", "incomplete format");
    const Value* keyed = nullptr;
    if (fmt[i] == '(') {
      size_t close = fmt.find(')', i);
      if (close == std::string::npos) Fail("ValueError", "incomplete format key");
      if (!args.is_dict()) TypeFail("format requires a mapping");
      keyed = args.dict().Find(std::string_view(fmt).substr(i + 1, close - i - 1));
      if (keyed == nullptr) Fail("KeyError", StrRepr(fmt.substr(i + 1, close - i - 1)));
      i = close + 1;
    }
    std::string flags;
    while (i < fmt.size() && std::string("-+ #0").find(fmt[i]) != std::string::npos) flags.push_back(fmt[i++]);
    std::string width, precision;
    while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') width.push_back(fmt[i++]);
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      precision = "0";
      while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') precision.push_back(fmt[i++]);
    }
    if (width.size() > 6 || precision.size() > 6) Fail("RenderLimitError", "format width is larger than the limit");
    if (i >= fmt.size()) Fail("ValueError", "incomplete format");
    char conv = fmt[i];
    if (conv == '%') {
      out.push_back('%');
      continue;
    }
    const Value& v = keyed ? *keyed : take();
    std::string text;
    if (conv == 's' || conv == 'r' || conv == 'a') {
      text = conv == 's' ? ToStr(v) : Repr(v);
      if (!precision.empty()) text = FromCodePoints(ToCodePoints(text).substr(0, std::stoul(precision)));
    } else if (conv == 'd' || conv == 'i' || conv == 'f' || conv == 'F' || conv == 'e' || conv == 'g' ||
               conv == 'x' || conv == 'X' || conv == 'o') {
      if (v.is_undefined()) UndefinedFail(v);
      if (!v.is_number()) TypeFail(std::string("%") + conv + " format: a real number is required, not " + TypeName(v));
      std::string spec = "%" + flags + (precision.empty() ? "" : "." + precision);
      char buf[512];
      if (conv == 'd' || conv == 'i' || conv == 'x' || conv == 'X' || conv == 'o') {
        int64_t n = v.kind == Kind::kFloat ? static_cast<int64_t>(v.f) : v.as_int();
        spec += std::string("ll") + (conv == 'i' ? 'd' : conv);
        std::snprintf(buf, sizeof buf, spec.c_str(), static_cast<long long>(n));
      } else {
        spec += conv;
        std::snprintf(buf, sizeof buf, spec.c_str(), v.as_double());
      }
      text = buf;
    } else {
      Fail("ValueError", std::string("unsupported format character '") + conv + "'");
    }
    size_t w = width.empty() ? 0 : std::stoul(width);
    size_t len = CodePointCount(text);
    if (len < w) {
      bool left = flags.find('-') != std::string::npos;
      bool zero = flags.find('0') != std::string::npos && conv != 's' && conv != 'r' && !left;
      std::string pad(w - len, zero ? '0' : ' ');
      if (left) {
        text += pad;
      } else if (zero && !text.empty() && (text[0] == '-' || text[0] == '+')) {
        text = text.substr(0, 1) + pad + text.substr(1);
      } else {
        text = pad + text;
      }
    }
    out += text;
  }
  if (next < values.size() && args.kind == Kind::kTuple) TypeFail("not all arguments converted during string formatting");
  return out;
}

}  // namespace

Value BinaryOp(Interpreter& in, const std::string& op, const Value& a, const Value& b) {
  if (a.is_undefined()) UndefinedFail(a);
  if (b.is_undefined()) UndefinedFail(b);
  bool nums = a.is_number() && b.is_number();
  bool floats = nums && (a.kind == Kind::kFloat || b.kind == Kind::kFloat);
  if (op == "+") {
    if (nums) {
      if (floats) return Value::Float(a.as_double() + b.as_double());
      int64_t r;
      if (__builtin_add_overflow(a.as_int(), b.as_int(), &r)) Overflow();
      return Value::Int(r);
    }
    if ((a.is_string() && b.is_string()) || (a.is_plain_sequence() && b.is_plain_sequence() && a.kind == b.kind)) {
      size_t size = a.is_string() ? CodePointCount(a.s()) + CodePointCount(b.s()) : a.list().size() + b.list().size();
      if (static_cast<int64_t>(size) > in.limits().max_sequence_length) {
        Fail("RenderLimitError", "template '+' would build a sequence of length " + std::to_string(size) +
                                     ", more than the limit of " + std::to_string(in.limits().max_sequence_length));
      }
    }
    if (a.is_string() && b.is_string()) {
      // Markup + str escapes the str (markupsafe), str + Markup too.
      if (a.markup && !b.markup) return Value::Str(a.s() + HtmlEscape(b.s()), true);
      if (b.markup && !a.markup) return Value::Str(HtmlEscape(a.s()) + b.s(), true);
      return Value::Str(a.s() + b.s(), a.markup);
    }
    if (a.is_plain_sequence() && b.is_plain_sequence() && a.kind == b.kind) {
      List out = a.list();
      out.insert(out.end(), b.list().begin(), b.list().end());
      return a.kind == Kind::kTuple ? Value::MakeTuple(std::move(out)) : Value::MakeList(std::move(out));
    }
    if (a.is_string() || a.is_plain_sequence()) {
      TypeFail("can only concatenate " + TypeName(a) + " (not \"" + TypeName(b) + "\") to " + TypeName(a));
    }
    Unsupported("+", a, b);
  }
  if (op == "-") {
    if (!nums) Unsupported("-", a, b);
    if (floats) return Value::Float(a.as_double() - b.as_double());
    int64_t r;
    if (__builtin_sub_overflow(a.as_int(), b.as_int(), &r)) Overflow();
    return Value::Int(r);
  }
  if (op == "*") {
    if (nums) return floats ? Value::Float(a.as_double() * b.as_double()) : Value::Int(CheckedMul(a.as_int(), b.as_int()));
    if ((a.is_string() || a.is_plain_sequence()) && b.is_integral()) return Repeat(in, a, b.as_int());
    if ((b.is_string() || b.is_plain_sequence()) && a.is_integral()) return Repeat(in, b, a.as_int());
    if (a.is_string() || a.is_plain_sequence() || b.is_string() || b.is_plain_sequence()) {
      const Value& other = a.is_string() || a.is_plain_sequence() ? b : a;
      TypeFail("can't multiply sequence by non-int of type '" + TypeName(other) + "'");
    }
    Unsupported("*", a, b);
  }
  if (op == "/") {
    if (!nums) Unsupported("/", a, b);
    if (b.as_double() == 0) Fail("ZeroDivisionError", floats ? "float division by zero" : "division by zero");
    return Value::Float(a.as_double() / b.as_double());
  }
  if (op == "//" || op == "%") {
    if (op == "%" && a.is_string()) return Value::Str(PercentFormat(a.s(), b));
    if (!nums) Unsupported(op, a, b);
    bool div = op == "//";
    if (floats) {
      if (b.as_double() == 0) Fail("ZeroDivisionError", div ? "float floor division by zero" : "float modulo");
      double m = FloorMod(a.as_double(), b.as_double());
      return Value::Float(div ? std::floor((a.as_double() - m) / b.as_double() + 0.5) : m);
    }
    int64_t x = a.as_int(), y = b.as_int();
    if (y == 0) Fail("ZeroDivisionError", "integer division or modulo by zero");
    if (x == INT64_MIN && y == -1) {
      if (div) Overflow();
      return Value::Int(0);
    }
    int64_t q = x / y, r = x % y;
    if (r != 0 && ((r < 0) != (y < 0))) {
      --q;
      r += y;
    }
    return Value::Int(div ? q : r);
  }
  if (op == "**") {
    if (!nums) Unsupported("** or pow()", a, b);
    if (!floats && b.as_int() >= 0) {
      int64_t base = a.as_int(), exp = b.as_int(), r = 1;
      while (exp > 0) {
        if (exp & 1) r = CheckedMul(r, base);
        exp >>= 1;
        if (exp > 0) base = CheckedMul(base, base);
      }
      return Value::Int(r);
    }
    if (a.as_double() == 0 && b.as_double() < 0) {
      Fail("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    }
    return Value::Float(std::pow(a.as_double(), b.as_double()));
  }
  Fail("TemplateRuntimeError", "unknown operator " + op);
}

bool Less(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.kind == Kind::kFloat || b.kind == Kind::kFloat) return a.as_double() < b.as_double();
    return a.as_int() < b.as_int();
  }
  if (a.is_string() && b.is_string()) return a.s() < b.s();
  if (a.is_list_like() && a.kind == b.kind) {
    const List& x = a.list();
    const List& y = b.list();
    for (size_t k = 0; k < x.size() && k < y.size(); ++k) {
      if (!Equal(x[k], y[k])) return Less(x[k], y[k]);
    }
    return x.size() < y.size();
  }
  if (a.is_undefined()) UndefinedFail(a);
  if (b.is_undefined()) UndefinedFail(b);
  TypeFail("'<' not supported between instances of '" + TypeName(a) + "' and '" + TypeName(b) + "'");
}

bool Contains(const Value& container, const Value& item) {
  switch (container.kind) {
    case Kind::kString:
      if (!item.is_string()) {
        TypeFail("'in <string>' requires string as left operand, not " + TypeName(item));
      }
      return container.s().find(item.s()) != std::string::npos;
    case Kind::kList:
    case Kind::kTuple:
      for (const Value& v : container.list()) {
        if (Equal(v, item)) return true;
      }
      return false;
    case Kind::kDict:
      if (item.kind == Kind::kList || item.is_dict()) TypeFail("unhashable type: '" + TypeName(item) + "'");
      return container.dict().Find(item) != nullptr;
    case Kind::kUndefined:
      return false;
    default:
      TypeFail("argument of type '" + TypeName(container) + "' is not iterable");
  }
}

int64_t Length(const Value& v) {
  switch (v.kind) {
    case Kind::kString: return static_cast<int64_t>(CodePointCount(v.s()));
    case Kind::kList:
    case Kind::kTuple:
      if (v.iterator) break;
      return static_cast<int64_t>(v.list().size());
    case Kind::kDict: return static_cast<int64_t>(v.dict().size());
    case Kind::kUndefined: return 0;
    default: break;
  }
  TypeFail("object of type '" + TypeName(v) + "' has no len()");
}

Value SliceValue(const Value& obj, const Value& start, const Value& stop, const Value& step) {
  auto index = [](const Value& v, const char* what) -> int64_t {
    if (v.is_integral()) return v.as_int();
    if (v.is_undefined()) UndefinedFail(v);
    TypeFail(std::string("slice indices must be integers or None or have an __index__ method") + (what[0] ? "" : ""));
  };
  bool is_str = obj.is_string();
  std::u32string cps = is_str ? ToCodePoints(obj.s()) : std::u32string();
  int64_t n = is_str ? static_cast<int64_t>(cps.size()) : static_cast<int64_t>(obj.list().size());
  int64_t st = step.is_none() ? 1 : index(step, "");
  if (st == 0) Fail("ValueError", "slice step cannot be zero");
  auto clamp = [&](const Value& v, int64_t dflt) {
    if (v.is_none()) return dflt;
    int64_t x = index(v, "");
    if (x < 0) x += n;
    if (st > 0) return x < 0 ? 0 : (x > n ? n : x);
    return x < 0 ? -1 : (x >= n ? n - 1 : x);
  };
  int64_t b = clamp(start, st > 0 ? 0 : n - 1);
  int64_t e = clamp(stop, st > 0 ? n : -1);
  std::u32string s_out;
  List l_out;
  for (int64_t k = b; st > 0 ? k < e : k > e; k += st) {
    if (is_str) {
      s_out.push_back(cps[k]);
    } else {
      l_out.push_back(obj.list()[k]);
    }
  }
  if (is_str) return Value::Str(FromCodePoints(s_out), obj.markup);
  return obj.kind == Kind::kTuple ? Value::MakeTuple(std::move(l_out)) : Value::MakeList(std::move(l_out));
}

}  // namespace mtok::chat
