// The parser's token stream and its expression grammar (jinja2's
// operator precedence); parser.cc adds the statements on top.
#pragma once
#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "chat/ast.h"
#include "chat/errors.h"
#include "chat/lexer.h"

namespace mtok::chat {

// Deepest expression/statement nesting the parser follows (the C++ stack
// must not overflow on hostile input; real templates nest a few levels).
constexpr int kMaxNesting = 200;

class ExprParser {
 public:
  explicit ExprParser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

 protected:
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
    explicit Depth(ExprParser* p) : p_(p) {
      if (++p_->depth_ > kMaxNesting) p_->Error("template nested too deeply");
    }
    ~Depth() { --p_->depth_; }
    ExprParser* p_;
  };

  ExprPtr Node(ExprKind kind, int line) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->line = line;
    return e;
  }

  // ---- expressions (parser_expr.cc) ----
  bool TupleEnd(std::initializer_list<const char*> extra) const;
  ExprPtr ParseTuple(std::initializer_list<const char*> extra, bool explicit_parens, bool with_condexpr = true);
  ExprPtr Expression(bool with_condexpr);
  ExprPtr Binary(ExprKind kind, ExprPtr left, ExprPtr right, int line, std::string op = "");
  enum class BinaryLevel { kOr, kAnd, kSum, kProduct, kPower };  // rows of LeftAssoc's table
  ExprPtr LeftAssoc(BinaryLevel level);
  ExprPtr Or();
  ExprPtr And();
  ExprPtr Not();
  ExprPtr Compare();
  ExprPtr Math1();
  ExprPtr Concat();
  ExprPtr Math2();
  ExprPtr Pow();
  ExprPtr Unary(bool with_filter);
  ExprPtr FilteredUnary() { return Unary(true); }
  ExprPtr Primary();
  ExprPtr Display(ExprKind kind, const char* close, int line);
  ExprPtr Postfix(ExprPtr node);
  ExprPtr Subscript(ExprPtr obj, int line);
  ExprPtr Subscribed();
  void CallArgs(Expr* call);
  ExprPtr NamedApply(ExprKind kind, ExprPtr input, int line);
  ExprPtr FilterCall(ExprPtr input, int line);
  ExprPtr FilterExpr(ExprPtr node);
  ExprPtr Test(ExprPtr node);

  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool soft_ = false;                    // inside an if: unknown filters/tests fail only when run
  std::vector<std::string> names_seen_;  // every name read, for macros' caller/varargs/kwargs
};

}  // namespace mtok::chat
