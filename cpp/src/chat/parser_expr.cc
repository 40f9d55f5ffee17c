// Expressions: jinja2's grammar and operator precedence.
#include "chat/parser.h"
#include "chat/parser_impl.h"

namespace mtok::chat {

bool ExprParser::TupleEnd(std::initializer_list<const char*> extra) const {
  const Token& t = Cur();
  if (t.type == Tok::kVarEnd || t.type == Tok::kBlockEnd || t.type == Tok::kEof) return true;
  if (t.type == Tok::kOp && t.value == ")") return true;
  if (t.type == Tok::kName) {
    for (const char* e : extra) {
      if (t.value == e) return true;
    }
  }
  return false;
}

// jinja2's parse_tuple: "a, b" is a tuple, "a" an expression; "()" only
// with explicit parentheses.
ExprPtr ExprParser::ParseTuple(std::initializer_list<const char*> extra, bool explicit_parens, bool with_condexpr) {
  int line = Cur().line;
  std::vector<ExprPtr> items;
  bool is_tuple = false;
  while (true) {
    if (!items.empty()) ExpectOp(",");
    if (TupleEnd(extra)) break;
    items.push_back(with_condexpr ? Expression(true) : Or());
    if (IsOp(",")) {
      is_tuple = true;
    } else {
      break;
    }
  }
  if (!is_tuple) {
    if (!items.empty()) return std::move(items[0]);
    if (!explicit_parens) Error("Expected an expression, got '" + Describe(Cur()) + "'");
  }
  ExprPtr t = Node(ExprKind::kTuple, line);
  t->args = std::move(items);
  return t;
}

ExprPtr ExprParser::Expression(bool with_condexpr) {
  Depth depth(this);
  if (!with_condexpr) return Or();
  int line = Cur().line;
  ExprPtr expr = Or();
  while (IsName("if")) {
    Next();
    bool was_soft = soft_;
    soft_ = true;
    ExprPtr test = Or();
    ExprPtr otherwise;
    if (IsName("else")) {
      Next();
      otherwise = Expression(true);
    }
    soft_ = was_soft;
    ExprPtr c = Node(ExprKind::kCondExpr, line);
    c->args.push_back(std::move(test));
    c->args.push_back(std::move(expr));
    c->args.push_back(std::move(otherwise));
    expr = std::move(c);
  }
  return expr;
}

ExprPtr ExprParser::Binary(ExprKind kind, ExprPtr left, ExprPtr right, int line, std::string op) {
  ExprPtr e = Node(kind, line);
  e->name = std::move(op);
  e->args.push_back(std::move(left));
  e->args.push_back(std::move(right));
  return e;
}

// jinja2's left-associative binary operators, one row a precedence level
// (loosest first): `left (op right)*`, both operands of the next tighter
// level. Comparisons, `not` and `~` have shapes of their own.
ExprPtr ExprParser::LeftAssoc(BinaryLevel level) {
  struct Row {
    Tok type;                 // kName: keyword operators
    const char* ops[4];       // up to four, null-terminated
    ExprKind kind;            // kBinary nodes keep their operator in `name`
    ExprPtr (ExprParser::*operand)();
  };
  static const Row kRows[] = {
      {Tok::kName, {"or"}, ExprKind::kOr, &ExprParser::And},
      {Tok::kName, {"and"}, ExprKind::kAnd, &ExprParser::Not},
      {Tok::kOp, {"+", "-"}, ExprKind::kBinary, &ExprParser::Concat},
      {Tok::kOp, {"*", "/", "//", "%"}, ExprKind::kBinary, &ExprParser::Pow},
      {Tok::kOp, {"**"}, ExprKind::kBinary, &ExprParser::FilteredUnary},
  };
  const Row& row = kRows[static_cast<int>(level)];
  auto at_op = [&] {
    if (Cur().type != row.type) return false;
    for (const char* op : row.ops) {
      if (op != nullptr && Cur().value == op) return true;
    }
    return false;
  };
  int line = Cur().line;
  ExprPtr left = (this->*row.operand)();
  while (at_op()) {
    std::string op = row.kind == ExprKind::kBinary ? Cur().value : std::string();
    Next();
    left = Binary(row.kind, std::move(left), (this->*row.operand)(), line, std::move(op));
  }
  return left;
}

ExprPtr ExprParser::Or() { return LeftAssoc(BinaryLevel::kOr); }
ExprPtr ExprParser::And() { return LeftAssoc(BinaryLevel::kAnd); }

ExprPtr ExprParser::Not() {
  if (IsName("not")) {
    Depth depth(this);
    int line = Cur().line;
    Next();
    ExprPtr e = Node(ExprKind::kNot, line);
    e->args.push_back(Not());
    return e;
  }
  return Compare();
}

ExprPtr ExprParser::Compare() {
  int line = Cur().line;
  ExprPtr first = Math1();
  ExprPtr cmp;
  while (true) {
    std::string op;
    const Token& t = Cur();
    if (t.type == Tok::kOp && (t.value == "==" || t.value == "!=" || t.value == "<" || t.value == "<=" ||
                               t.value == ">" || t.value == ">=")) {
      op = t.value;
      Next();
    } else if (IsName("in")) {
      op = "in";
      Next();
    } else if (IsName("not") && Peek().type == Tok::kName && Peek().value == "in") {
      op = "notin";
      Next();
      Next();
    } else {
      break;
    }
    if (!cmp) {
      cmp = Node(ExprKind::kCompare, line);
      cmp->args.push_back(std::move(first));
    }
    cmp->ops.push_back(op);
    cmp->args.push_back(Math1());
  }
  return cmp ? std::move(cmp) : std::move(first);
}

ExprPtr ExprParser::Math1() { return LeftAssoc(BinaryLevel::kSum); }

ExprPtr ExprParser::Concat() {
  int line = Cur().line;
  ExprPtr first = Math2();
  if (!IsOp("~")) return first;
  ExprPtr e = Node(ExprKind::kConcat, line);
  e->args.push_back(std::move(first));
  while (IsOp("~")) {
    Next();
    e->args.push_back(Math2());
  }
  return e;
}

ExprPtr ExprParser::Math2() { return LeftAssoc(BinaryLevel::kProduct); }
ExprPtr ExprParser::Pow() { return LeftAssoc(BinaryLevel::kPower); }

ExprPtr ExprParser::Unary(bool with_filter) {
  Depth depth(this);
  int line = Cur().line;
  ExprPtr node;
  if (IsOp("-") || IsOp("+")) {
    ExprKind kind = IsOp("-") ? ExprKind::kNeg : ExprKind::kPos;
    Next();
    node = Node(kind, line);
    node->args.push_back(Unary(false));
  } else {
    node = Primary();
  }
  node = Postfix(std::move(node));
  if (with_filter) node = FilterExpr(std::move(node));
  return node;
}

ExprPtr ExprParser::Primary() {
  const Token& t = Cur();
  int line = t.line;
  ExprPtr e;
  switch (t.type) {
    case Tok::kName: {
      const std::string& n = t.value;
      if (n == "true" || n == "True" || n == "false" || n == "False") {
        e = Node(ExprKind::kConst, line);
        e->value = Value::Bool(n[0] == 't' || n[0] == 'T');
      } else if (n == "none" || n == "None") {
        e = Node(ExprKind::kConst, line);
        e->value = Value::None();
      } else {
        e = Node(ExprKind::kName, line);
        e->name = n;
        names_seen_.push_back(n);
      }
      Next();
      return e;
    }
    case Tok::kString: {
      std::string s;
      while (Cur().type == Tok::kString) {
        s += Cur().value;
        Next();
      }
      e = Node(ExprKind::kConst, line);
      e->value = Value::Str(std::move(s));
      return e;
    }
    case Tok::kInt:
      e = Node(ExprKind::kConst, line);
      e->value = Value::Int(std::stoll(t.value));
      Next();
      return e;
    case Tok::kFloat:
      e = Node(ExprKind::kConst, line);
      e->value = Value::Float(std::stod(t.value));
      Next();
      return e;
    default:
      break;
  }
  if (IsOp("(")) {
    Next();
    e = ParseTuple({}, true);
    ExpectOp(")");
    return e;
  }
  if (IsOp("[")) return Display(ExprKind::kList, "]", line);
  if (IsOp("{")) return Display(ExprKind::kDict, "}", line);
  Error("unexpected '" + Describe(t) + "'");
}

// A list `[a, b]` or dict `{k: v}` literal from its opening bracket to
// `close`; a trailing comma is allowed. Dict items are key, value in args.
ExprPtr ExprParser::Display(ExprKind kind, const char* close, int line) {
  Next();
  ExprPtr e = Node(kind, line);
  while (!IsOp(close)) {
    if (!e->args.empty()) ExpectOp(",");
    if (IsOp(close)) break;
    e->args.push_back(Expression(true));
    if (kind == ExprKind::kDict) {
      ExpectOp(":");
      e->args.push_back(Expression(true));
    }
  }
  Next();
  return e;
}

ExprPtr ExprParser::Postfix(ExprPtr node) {
  while (true) {
    int line = Cur().line;
    if (IsOp(".")) {
      Next();
      if (Cur().type == Tok::kName) {
        ExprPtr e = Node(ExprKind::kGetAttr, line);
        e->name = Cur().value;
        e->args.push_back(std::move(node));
        node = std::move(e);
      } else if (Cur().type == Tok::kInt) {
        ExprPtr e = Node(ExprKind::kGetItem, line);
        e->args.push_back(std::move(node));
        ExprPtr idx = Node(ExprKind::kConst, line);
        idx->value = Value::Int(std::stoll(Cur().value));
        e->args.push_back(std::move(idx));
        node = std::move(e);
      } else {
        Error("expected name or number");
      }
      Next();
    } else if (IsOp("[")) {
      Next();
      node = Subscript(std::move(node), line);
    } else if (IsOp("(")) {
      ExprPtr call = Node(ExprKind::kCall, line);
      call->args.push_back(std::move(node));
      CallArgs(call.get());
      node = std::move(call);
    } else {
      return node;
    }
  }
}

ExprPtr ExprParser::Subscript(ExprPtr obj, int line) {
  std::vector<ExprPtr> parts;
  ExprPtr single;
  std::vector<ExprPtr> indexes;
  while (true) {
    indexes.push_back(Subscribed());
    if (!IsOp(",")) break;
    Next();
    if (IsOp("]")) break;
  }
  ExpectOp("]");
  ExprPtr index;
  if (indexes.size() == 1) {
    index = std::move(indexes[0]);
  } else {
    index = Node(ExprKind::kTuple, line);
    index->args = std::move(indexes);
  }
  if (index->kind == ExprKind::kSlice) {  // a placeholder holding the slice parts
    index->args.insert(index->args.begin(), std::move(obj));
    index->line = line;
    return index;
  }
  ExprPtr e = Node(ExprKind::kGetItem, line);
  e->args.push_back(std::move(obj));
  e->args.push_back(std::move(index));
  return e;
}

ExprPtr ExprParser::Subscribed() {
  int line = Cur().line;
  std::vector<ExprPtr> args;
  if (IsOp(":")) {
    Next();
    args.emplace_back();
  } else {
    ExprPtr node = Expression(true);
    if (!IsOp(":")) return node;
    Next();
    args.push_back(std::move(node));
  }
  if (IsOp(":")) {
    args.emplace_back();
  } else if (!IsOp("]") && !IsOp(",")) {
    args.push_back(Expression(true));
  } else {
    args.emplace_back();
  }
  if (IsOp(":")) {
    Next();
    if (!IsOp("]") && !IsOp(",")) {
      args.push_back(Expression(true));
    } else {
      args.emplace_back();
    }
  } else {
    args.emplace_back();
  }
  ExprPtr s = Node(ExprKind::kSlice, line);
  s->args = std::move(args);
  return s;
}

void ExprParser::CallArgs(Expr* call) {
  ExpectOp("(");
  bool first = true;
  while (!IsOp(")")) {
    if (!first) ExpectOp(",");
    first = false;
    if (IsOp(")")) break;
    if (IsOp("*")) {
      Next();
      call->star_args = Expression(true);
    } else if (IsOp("**")) {
      Next();
      call->star_kwargs = Expression(true);
    } else if (Cur().type == Tok::kName && Peek().type == Tok::kOp && Peek().value == "=") {
      std::string key = Cur().value;
      Next();
      Next();
      call->kwargs.emplace_back(std::move(key), Expression(true));
    } else {
      if (!call->kwargs.empty() || call->star_args || call->star_kwargs) {
        Error("invalid syntax for function call expression");
      }
      call->args.push_back(Expression(true));
    }
  }
  Next();
}

// A filter or test node named by the dotted name that follows, applied to
// `input`; outside an if, a name jinja2 does not know fails to compile.
ExprPtr ExprParser::NamedApply(ExprKind kind, ExprPtr input, int line) {
  std::string name = ExpectName();
  while (IsOp(".")) {
    Next();
    name += "." + ExpectName();
  }
  const bool filter = kind == ExprKind::kFilter;
  if (!soft_ && !(filter ? IsKnownFilter(name) : IsKnownTest(name))) {
    Fail("TemplateAssertionError", std::string(filter ? "No filter" : "No test") + " named '" + name + "'.", line);
  }
  ExprPtr e = Node(kind, line);
  e->name = std::move(name);
  e->soft = soft_;
  e->args.push_back(std::move(input));
  return e;
}

ExprPtr ExprParser::FilterCall(ExprPtr input, int line) {
  ExprPtr f = NamedApply(ExprKind::kFilter, std::move(input), line);
  if (IsOp("(")) CallArgs(f.get());
  return f;
}

ExprPtr ExprParser::FilterExpr(ExprPtr node) {
  while (true) {
    int line = Cur().line;
    if (IsOp("|")) {
      Next();
      node = FilterCall(std::move(node), line);
    } else if (IsName("is")) {
      node = Test(std::move(node));
    } else if (IsOp("(")) {
      ExprPtr call = Node(ExprKind::kCall, line);
      call->args.push_back(std::move(node));
      CallArgs(call.get());
      node = std::move(call);
    } else {
      return node;
    }
  }
}

ExprPtr ExprParser::Test(ExprPtr node) {
  int line = Cur().line;
  Next();
  bool negated = false;
  if (IsName("not")) {
    Next();
    negated = true;
  }
  ExprPtr t = NamedApply(ExprKind::kTest, std::move(node), line);
  const Token& c = Cur();
  if (IsOp("(")) {
    CallArgs(t.get());
  } else if ((c.type == Tok::kName || c.type == Tok::kString || c.type == Tok::kInt || c.type == Tok::kFloat ||
              IsOp("[") || IsOp("{")) &&
             !(IsName("else") || IsName("or") || IsName("and"))) {
    if (IsName("is")) Error("You cannot chain multiple tests with is");
    t->args.push_back(Postfix(Primary()));
  }
  if (!negated) return t;
  ExprPtr n = Node(ExprKind::kNot, line);
  n->args.push_back(std::move(t));
  return n;
}
}  // namespace mtok::chat
