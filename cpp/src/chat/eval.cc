// Expressions.
#include "chat/errors.h"
#include "chat/interpreter.h"
#include "chat/pystr.h"

namespace mtok::chat {

void UndefinedFail(const Value& v) {
  const UndefinedInfo* info = v.undefined_info();
  if (info == nullptr) Fail("UndefinedError", "value is undefined");
  Fail(info->security ? "SecurityError" : "UndefinedError", info->message);
}

CallArgs Interpreter::EvalArgs(const Expr& e, size_t first) {
  CallArgs out;
  for (size_t k = first; k < e.args.size(); ++k) out.positional.push_back(Eval(*e.args[k]));
  for (const auto& kv : e.kwargs) out.named.emplace_back(kv.first, Eval(*kv.second));
  if (e.star_args) {
    for (Value& v : Iterate(Eval(*e.star_args))) out.positional.push_back(std::move(v));
  }
  if (e.star_kwargs) {
    Value d = Eval(*e.star_kwargs);
    if (!d.is_dict()) TypeFail("argument after ** must be a mapping, not " + TypeName(d));
    for (const auto& kv : d.dict().items) {
      if (!kv.first.is_string()) TypeFail("keywords must be strings");
      out.named.emplace_back(kv.first.s(), kv.second);
    }
  }
  return out;
}

Value Interpreter::EvalCompare(const Expr& e) {
  Value left = Eval(*e.args[0]);
  for (size_t k = 0; k < e.ops.size(); ++k) {
    Value right = Eval(*e.args[k + 1]);
    const std::string& op = e.ops[k];
    bool ok;
    if (op == "==") {
      ok = Equal(left, right);
    } else if (op == "!=") {
      ok = !Equal(left, right);
    } else if (op == "in") {
      ok = Contains(right, left);
    } else if (op == "notin") {
      ok = !Contains(right, left);
    } else {
      if (left.is_undefined()) UndefinedFail(left);
      if (right.is_undefined()) UndefinedFail(right);
      auto unorderable = [&] {
        TypeFail("'" + op + "' not supported between instances of '" + TypeName(left) + "' and '" + TypeName(right) + "'");
      };
      bool comparable = (left.is_number() && right.is_number()) || (left.is_string() && right.is_string()) ||
                        (left.kind == right.kind && left.is_list_like());
      if (!comparable) unorderable();
      if (op == "<") ok = Less(left, right);
      else if (op == ">") ok = Less(right, left);
      else if (op == "<=") ok = !Less(right, left);
      else ok = !Less(left, right);
    }
    if (!ok) return Value::Bool(false);
    left = std::move(right);
  }
  return Value::Bool(true);
}

Value Interpreter::Eval(const Expr& e) {
  Step();
  try {
    switch (e.kind) {
      case ExprKind::kConst:
        return e.value;
      case ExprKind::kName:
        return Lookup(e.name);
      case ExprKind::kGetAttr:
        return GetAttr(Eval(*e.args[0]), e.name);
      case ExprKind::kGetItem: {
        Value obj = Eval(*e.args[0]);
        return GetItem(obj, Eval(*e.args[1]));
      }
      case ExprKind::kSlice: {
        Value obj = Eval(*e.args[0]);
        Value parts[3];
        for (int k = 0; k < 3; ++k) parts[k] = e.args[k + 1] ? Eval(*e.args[k + 1]) : Value::None();
        if (obj.is_undefined()) UndefinedFail(obj);
        if (obj.is_list_like() || obj.is_string()) return SliceValue(obj, parts[0], parts[1], parts[2]);
        return Value::Undefined(ObjectTypeRepr(obj) + " has no element slice(" + Repr(parts[0]) + ", " +
                                Repr(parts[1]) + ", " + Repr(parts[2]) + ")");
      }
      case ExprKind::kCall: {
        Value callee = Eval(*e.args[0]);
        return Call(callee, EvalArgs(e, 1));
      }
      case ExprKind::kFilter: {
        Value input = e.args[0] ? Eval(*e.args[0]) : Value();
        return ApplyFilter(e.name, input, EvalArgs(e, 1), e.soft);
      }
      case ExprKind::kTest: {
        Value input = Eval(*e.args[0]);
        return Value::Bool(RunTest(e.name, input, EvalArgs(e, 1), e.soft));
      }
      case ExprKind::kNeg:
      case ExprKind::kPos: {
        Value v = Eval(*e.args[0]);
        if (v.is_undefined()) UndefinedFail(v);
        bool neg = e.kind == ExprKind::kNeg;
        if (v.kind == Kind::kFloat) return Value::Float(neg ? -v.f : v.f);
        if (v.is_integral()) {
          if (neg && v.as_int() == INT64_MIN) Fail("OverflowError", "integer out of the 64-bit range");
          return Value::Int(neg ? -v.as_int() : v.as_int());
        }
        TypeFail(std::string("bad operand type for unary ") + (neg ? "-" : "+") + ": '" + TypeName(v) + "'");
      }
      case ExprKind::kNot:
        return Value::Bool(!Truthy(Eval(*e.args[0])));
      case ExprKind::kBinary: {
        Value a = Eval(*e.args[0]);
        Value b = Eval(*e.args[1]);
        return BinaryOp(*this, e.name, a, b);
      }
      case ExprKind::kConcat: {
        std::string s;
        for (const ExprPtr& part : e.args) {
          s += ToStr(Eval(*part));
          CheckLength(s.size(), "str");
        }
        CheckLength(CodePointCount(s), "str");
        return Value::Str(std::move(s));
      }
      case ExprKind::kAnd: {
        Value a = Eval(*e.args[0]);
        return Truthy(a) ? Eval(*e.args[1]) : a;
      }
      case ExprKind::kOr: {
        Value a = Eval(*e.args[0]);
        return Truthy(a) ? a : Eval(*e.args[1]);
      }
      case ExprKind::kCompare:
        return EvalCompare(e);
      case ExprKind::kCondExpr:
        if (Truthy(Eval(*e.args[0]))) return Eval(*e.args[1]);
        if (e.args[2]) return Eval(*e.args[2]);
        return Value::Undefined("the inline if-expression on line " + std::to_string(e.line) +
                                " evaluated to false and no else section was defined.");
      case ExprKind::kList:
      case ExprKind::kTuple: {
        List items;
        for (const ExprPtr& item : e.args) items.push_back(Eval(*item));
        return e.kind == ExprKind::kList ? Value::MakeList(std::move(items)) : Value::MakeTuple(std::move(items));
      }
      case ExprKind::kDict: {
        Dict d;
        for (size_t k = 0; k + 1 < e.args.size(); k += 2) {
          Value key = Eval(*e.args[k]);
          if (key.is_list_like() && key.kind == Kind::kList) TypeFail("unhashable type: 'list'");
          if (key.is_dict()) TypeFail("unhashable type: 'dict'");
          d.Set(std::move(key), Eval(*e.args[k + 1]));
        }
        return Value::MakeDict(std::move(d));
      }
    }
  } catch (RenderError& err) {
    if (err.line == 0) err.line = e.line;
    throw;
  }
  return Value();
}

}  // namespace mtok::chat
