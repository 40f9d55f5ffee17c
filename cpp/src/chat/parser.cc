#include "chat/parser.h"

#include <initializer_list>

#include "chat/errors.h"
#include "chat/lexer.h"

namespace mtok::chat {
namespace {

// Deepest expression/statement nesting the parser follows (the C++ stack
// must not overflow on hostile input; real templates nest a few levels).
constexpr int kMaxNesting = 200;

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

  Template Run() {
    Template t;
    t.body = Subparse({});
    if (Cur().type != Tok::kEof) Error("unexpected '" + Describe(Cur()) + "'");
    return t;
  }

 private:
  const Token& Cur() const { return toks_[pos_]; }
  const Token& Peek(size_t k = 1) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  void Next() {
    if (pos_ + 1 < toks_.size()) ++pos_;
  }
  bool IsOp(const char* op) const { return Cur().type == Tok::kOp && Cur().value == op; }
  bool IsName(const char* name) const { return Cur().type == Tok::kName && Cur().value == name; }
  [[noreturn]] void Error(std::string message) const { Fail("TemplateSyntaxError", std::move(message), Cur().line); }

  static std::string Describe(const Token& t) {
    switch (t.type) {
      case Tok::kVarEnd: return "end of print statement";
      case Tok::kBlockEnd: return "end of statement block";
      case Tok::kVarBegin: return "begin of print statement";
      case Tok::kBlockBegin: return "begin of statement block";
      case Tok::kEof: return "end of template";
      case Tok::kData: return "template data";
      case Tok::kString: return "string";
      case Tok::kInt: return "integer";
      case Tok::kFloat: return "float";
      default: return t.value;
    }
  }
  void ExpectOp(const char* op) {
    if (!IsOp(op)) Error(std::string("expected token '") + op + "', got '" + Describe(Cur()) + "'");
    Next();
  }
  void Expect(Tok type, const char* what) {
    if (Cur().type != type) Error(std::string("expected token '") + what + "', got '" + Describe(Cur()) + "'");
    Next();
  }
  std::string ExpectName() {
    if (Cur().type != Tok::kName) Error("expected token 'name', got '" + Describe(Cur()) + "'");
    std::string v = Cur().value;
    Next();
    return v;
  }
  void ExpectBlockEnd() { Expect(Tok::kBlockEnd, "end of statement block"); }

  struct Depth {
    explicit Depth(Parser* p) : p_(p) {
      if (++p_->depth_ > kMaxNesting) p_->Error("template nested too deeply");
    }
    ~Depth() { --p_->depth_; }
    Parser* p_;
  };

  ExprPtr Node(ExprKind kind, int line) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->line = line;
    return e;
  }

  // ---- statements ---------------------------------------------------------

  // Parses until a block tag whose name is in `ends` (left as the current
  // token, after its {%), or the end of the template when `ends` is empty.
  Body Subparse(std::initializer_list<const char*> ends) {
    Depth depth(this);
    Body body;
    if (ends.size() != 0) end_stack_.emplace_back(ends.begin(), ends.end());
    struct Pop {
      ~Pop() {
        if (on) stack->pop_back();
      }
      std::vector<std::vector<std::string>>* stack;
      bool on;
    } pop{&end_stack_, ends.size() != 0};
    while (true) {
      const Token& t = Cur();
      if (t.type == Tok::kEof) {
        if (ends.size() != 0) UnknownTagOrEof(nullptr);
        return body;
      }
      if (t.type == Tok::kData) {
        auto s = std::make_unique<Stmt>();
        s->kind = StmtKind::kText;
        s->line = t.line;
        s->text = t.value;
        body.push_back(std::move(s));
        Next();
      } else if (t.type == Tok::kVarBegin) {
        Next();
        auto s = std::make_unique<Stmt>();
        s->kind = StmtKind::kPrint;
        s->line = Cur().line;
        s->expr = ParseTuple(true, {}, false);
        Expect(Tok::kVarEnd, "end of print statement");
        body.push_back(std::move(s));
      } else if (t.type == Tok::kBlockBegin) {
        Next();
        if (Cur().type == Tok::kName) {
          for (const char* e : ends) {
            if (Cur().value == e) return body;
          }
        }
        body.push_back(Statement());
      } else {
        Error("unexpected '" + Describe(t) + "'");
      }
    }
  }

  // Consumes `{% name %}` ending a block (the current token is the name).
  void EndTag(const char* name) {
    if (!IsName(name)) Error(std::string("expected '") + name + "'");
    Next();
    ExpectBlockEnd();
  }

  // jinja2's message for an unknown tag (name) or the end of the template
  // (null) inside blocks: what it was looking for and the innermost block.
  [[noreturn]] void UnknownTagOrEof(const std::string* name) {
    std::string msg = name ? "Encountered unknown tag '" + *name + "'." : "Unexpected end of template.";
    if (!end_stack_.empty()) {
      bool expected = false;
      for (const auto& level : end_stack_) {
        for (const std::string& e : level) expected |= name && e == *name;
      }
      std::string looking;
      for (const std::string& e : end_stack_.back()) looking += (looking.empty() ? "'" : " or '") + e + "'";
      if (expected) {
        msg += " You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for " +
               looking + ".";
      } else {
        msg += " Jinja was looking for the following tags: " + looking + ".";
      }
    }
    if (!tag_stack_.empty()) msg += " The innermost block that needs to be closed is '" + tag_stack_.back() + "'.";
    Error(msg);
  }

  StmtPtr Statement() {
    if (Cur().type != Tok::kName) Error("tag name expected");
    static const char* const kTags[] = {"if", "for", "set", "macro", "call", "filter", "with", "break",
                                        "continue", "generation"};
    bool known = false;
    for (const char* t : kTags) known |= Cur().value == t;
    if (!known) {
      std::string tag = Cur().value;
      if (tag == "extends" || tag == "include" || tag == "import" || tag == "from" || tag == "block") {
        Error("'" + tag + "' is not supported in chat templates (they cannot load other templates)");
      }
      UnknownTagOrEof(&tag);
    }
    tag_stack_.push_back(Cur().value);
    StmtPtr s = KnownStatement();
    tag_stack_.pop_back();
    return s;
  }

  StmtPtr KnownStatement() {
    std::string tag = Cur().value;
    auto s = std::make_unique<Stmt>();
    s->line = Cur().line;
    Next();
    if (tag == "if") return If(std::move(s));
    if (tag == "for") return For(std::move(s));
    if (tag == "set") return Set(std::move(s));
    if (tag == "macro") return Macro(std::move(s));
    if (tag == "call") return CallBlock(std::move(s));
    if (tag == "filter") return FilterBlock(std::move(s));
    if (tag == "with") return With(std::move(s));
    if (tag == "break" || tag == "continue") {
      if (loop_depth_ == 0) Error("'" + tag + "' can only be used inside a loop");  // jinja2 checks at parse time
      s->kind = tag == "break" ? StmtKind::kBreak : StmtKind::kContinue;
      ExpectBlockEnd();
      return s;
    }
    s->kind = StmtKind::kScope;
    ExpectBlockEnd();
    s->body = Subparse({"endgeneration"});
    EndTag("endgeneration");
    return s;
  }

  StmtPtr If(StmtPtr s) {
    s->kind = StmtKind::kIf;
    bool was_soft = soft_;
    soft_ = true;
    while (true) {
      ExprPtr cond = ParseTuple(false, {}, false, /*with_condexpr=*/false);
      ExpectBlockEnd();
      Body body = Subparse({"elif", "else", "endif"});
      s->branches.emplace_back(std::move(cond), std::move(body));
      if (IsName("elif")) {
        Next();
        continue;
      }
      if (IsName("else")) {
        Next();
        ExpectBlockEnd();
        s->else_body = Subparse({"endif"});
      }
      break;
    }
    soft_ = was_soft;
    EndTag("endif");
    return s;
  }

  Target AssignTarget(bool allow_attr, const char* extra_end) {
    Target t;
    bool paren = IsOp("(");
    if (paren) Next();
    while (true) {
      t.names.push_back(ExpectName());
      if (allow_attr && t.names.size() == 1 && !paren && IsOp(".")) {
        Next();
        t.attr = ExpectName();
        return t;
      }
      if (!IsOp(",")) break;
      t.tuple = true;
      Next();
      if ((paren && IsOp(")")) || (extra_end && IsName(extra_end)) || IsOp("=")) break;
    }
    if (paren) {
      ExpectOp(")");
      t.tuple = true;
    }
    return t;
  }

  StmtPtr For(StmtPtr s) {
    s->kind = StmtKind::kFor;
    bool was_soft = soft_;
    soft_ = false;
    s->target = AssignTarget(false, "in");
    if (!IsName("in")) Error("expected token 'in', got '" + Describe(Cur()) + "'");
    Next();
    s->expr = ParseTuple(false, {"recursive"}, false, /*with_condexpr=*/false);
    if (IsName("if")) {
      Next();
      s->cond = Expression(true);
    }
    if (IsName("recursive")) {
      Next();
      s->recursive = true;
    }
    ExpectBlockEnd();
    ++loop_depth_;
    s->body = Subparse({"endfor", "else"});
    --loop_depth_;
    if (IsName("else")) {
      Next();
      ExpectBlockEnd();
      int saved = loop_depth_;
      loop_depth_ = 0;
      s->else_body = Subparse({"endfor"});
      loop_depth_ = saved;
    }
    EndTag("endfor");
    soft_ = was_soft;
    return s;
  }

  void FilterChain(std::vector<ExprPtr>* out) {
    while (true) {
      int line = Cur().line;
      out->push_back(FilterCall(nullptr, line));
      if (!IsOp("|")) break;
      Next();
    }
  }

  StmtPtr Set(StmtPtr s) {
    s->target = AssignTarget(true, nullptr);
    if (IsOp("=")) {
      Next();
      s->kind = StmtKind::kSet;
      s->expr = ParseTuple(true, {}, false);
      ExpectBlockEnd();
      return s;
    }
    s->kind = StmtKind::kSetBlock;
    if (IsOp("|")) {
      Next();
      FilterChain(&s->filters);
    }
    ExpectBlockEnd();
    bool was_soft = soft_;
    soft_ = false;
    s->body = Subparse({"endset"});
    soft_ = was_soft;
    EndTag("endset");
    return s;
  }

  // "(a, b=default, ...)" of a macro or call block.
  void Signature(MacroDef* m) {
    ExpectOp("(");
    while (!IsOp(")")) {
      if (!m->params.empty()) ExpectOp(",");
      if (IsOp(")")) break;
      m->params.push_back(ExpectName());
      if (IsOp("=")) {
        Next();
        m->defaults.push_back(Expression(true));
      } else if (!m->defaults.empty()) {
        Error("non-default argument follows default argument");
      }
    }
    Next();
  }

  void MacroBody(MacroDef* m, const char* end) {
    bool was_soft = soft_;
    int loops = loop_depth_;
    soft_ = false;
    loop_depth_ = 0;
    size_t first = names_seen_.size();
    m->body = Subparse({end});
    for (size_t k = first; k < names_seen_.size(); ++k) {
      m->uses_caller |= names_seen_[k] == "caller";
      m->uses_varargs |= names_seen_[k] == "varargs";
      m->uses_kwargs |= names_seen_[k] == "kwargs";
    }
    soft_ = was_soft;
    loop_depth_ = loops;
    EndTag(end);
  }

  StmtPtr Macro(StmtPtr s) {
    s->kind = StmtKind::kMacro;
    s->macro = std::make_shared<MacroDef>();
    s->macro->name = ExpectName();
    Signature(s->macro.get());
    ExpectBlockEnd();
    MacroBody(s->macro.get(), "endmacro");
    return s;
  }

  StmtPtr CallBlock(StmtPtr s) {
    s->kind = StmtKind::kCallBlock;
    s->macro = std::make_shared<MacroDef>();
    s->macro->name = "caller";
    if (IsOp("(")) Signature(s->macro.get());
    s->expr = Expression(true);
    if (s->expr->kind != ExprKind::kCall) Error("expected call");
    ExpectBlockEnd();
    MacroBody(s->macro.get(), "endcall");
    return s;
  }

  StmtPtr FilterBlock(StmtPtr s) {
    s->kind = StmtKind::kFilterBlock;
    FilterChain(&s->filters);
    ExpectBlockEnd();
    bool was_soft = soft_;
    soft_ = false;
    s->body = Subparse({"endfilter"});
    soft_ = was_soft;
    EndTag("endfilter");
    return s;
  }

  StmtPtr With(StmtPtr s) {
    s->kind = StmtKind::kWith;
    while (Cur().type != Tok::kBlockEnd) {
      if (!s->assigns.empty()) ExpectOp(",");
      Target t = AssignTarget(false, nullptr);
      ExpectOp("=");
      s->assigns.emplace_back(std::move(t), Expression(true));
    }
    Next();
    bool was_soft = soft_;
    soft_ = false;
    s->body = Subparse({"endwith"});
    soft_ = was_soft;
    EndTag("endwith");
    return s;
  }

  // ---- expressions ----------------------------------------------------------

  bool TupleEnd(std::initializer_list<const char*> extra) const {
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

  ExprPtr ParseTuple(bool allow_empty_paren_tuple_unused, std::initializer_list<const char*> extra,
                     bool explicit_parens, bool with_condexpr = true) {
    (void)allow_empty_paren_tuple_unused;
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

  ExprPtr Expression(bool with_condexpr) {
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

  ExprPtr Binary(ExprKind kind, ExprPtr left, ExprPtr right, int line, std::string op = "") {
    ExprPtr e = Node(kind, line);
    e->name = std::move(op);
    e->args.push_back(std::move(left));
    e->args.push_back(std::move(right));
    return e;
  }

  ExprPtr Or() {
    int line = Cur().line;
    ExprPtr left = And();
    while (IsName("or")) {
      Next();
      left = Binary(ExprKind::kOr, std::move(left), And(), line);
    }
    return left;
  }

  ExprPtr And() {
    int line = Cur().line;
    ExprPtr left = Not();
    while (IsName("and")) {
      Next();
      left = Binary(ExprKind::kAnd, std::move(left), Not(), line);
    }
    return left;
  }

  ExprPtr Not() {
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

  ExprPtr Compare() {
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

  ExprPtr Math1() {
    int line = Cur().line;
    ExprPtr left = Concat();
    while (IsOp("+") || IsOp("-")) {
      std::string op = Cur().value;
      Next();
      left = Binary(ExprKind::kBinary, std::move(left), Concat(), line, op);
    }
    return left;
  }

  ExprPtr Concat() {
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

  ExprPtr Math2() {
    int line = Cur().line;
    ExprPtr left = Pow();
    while (IsOp("*") || IsOp("/") || IsOp("//") || IsOp("%")) {
      std::string op = Cur().value;
      Next();
      left = Binary(ExprKind::kBinary, std::move(left), Pow(), line, op);
    }
    return left;
  }

  ExprPtr Pow() {
    int line = Cur().line;
    ExprPtr left = Unary(true);
    while (IsOp("**")) {
      Next();
      left = Binary(ExprKind::kBinary, std::move(left), Unary(true), line, "**");
    }
    return left;
  }

  ExprPtr Unary(bool with_filter) {
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

  ExprPtr Primary() {
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
      e = ParseTuple(true, {}, true);
      ExpectOp(")");
      return e;
    }
    if (IsOp("[")) {
      Next();
      e = Node(ExprKind::kList, line);
      while (!IsOp("]")) {
        if (!e->args.empty()) ExpectOp(",");
        if (IsOp("]")) break;
        e->args.push_back(Expression(true));
      }
      Next();
      return e;
    }
    if (IsOp("{")) {
      Next();
      e = Node(ExprKind::kDict, line);
      while (!IsOp("}")) {
        if (!e->args.empty()) ExpectOp(",");
        if (IsOp("}")) break;
        e->args.push_back(Expression(true));
        ExpectOp(":");
        e->args.push_back(Expression(true));
      }
      Next();
      return e;
    }
    Error("unexpected '" + Describe(t) + "'");
  }

  ExprPtr Postfix(ExprPtr node) {
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

  ExprPtr Subscript(ExprPtr obj, int line) {
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

  ExprPtr Subscribed() {
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

  void CallArgs(Expr* call) {
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

  ExprPtr FilterCall(ExprPtr input, int line) {
    std::string name = ExpectName();
    while (IsOp(".")) {
      Next();
      name += "." + ExpectName();
    }
    if (!soft_ && !IsKnownFilter(name)) Fail("TemplateAssertionError", "No filter named '" + name + "'.", line);
    ExprPtr f = Node(ExprKind::kFilter, line);
    f->name = name;
    f->soft = soft_;
    f->args.push_back(std::move(input));
    if (IsOp("(")) CallArgs(f.get());
    return f;
  }

  ExprPtr FilterExpr(ExprPtr node) {
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

  ExprPtr Test(ExprPtr node) {
    int line = Cur().line;
    Next();
    bool negated = false;
    if (IsName("not")) {
      Next();
      negated = true;
    }
    std::string name = ExpectName();
    while (IsOp(".")) {
      Next();
      name += "." + ExpectName();
    }
    if (!soft_ && !IsKnownTest(name)) Fail("TemplateAssertionError", "No test named '" + name + "'.", line);
    ExprPtr t = Node(ExprKind::kTest, line);
    t->name = name;
    t->soft = soft_;
    t->args.push_back(std::move(node));
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

  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  int loop_depth_ = 0;
  bool soft_ = false;
  std::vector<std::string> names_seen_;
  std::vector<std::vector<std::string>> end_stack_;  // the end tags each open block waits for
  std::vector<std::string> tag_stack_;               // the open blocks' tags
};

}  // namespace

Template Parse(std::string_view source) { return Parser(Lex(source)).Run(); }

}  // namespace mtok::chat
