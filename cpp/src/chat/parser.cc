#include "chat/parser.h"

#include <initializer_list>

#include "chat/errors.h"
#include "chat/lexer.h"
#include "chat/parser_impl.h"

namespace mtok::chat {
namespace {

class Parser : public ExprParser {
 public:
  explicit Parser(std::vector<Token> tokens) : ExprParser(std::move(tokens)) {}

  Template Run() {
    Template t;
    t.body = Subparse({});
    if (Cur().type != Tok::kEof) Error("unexpected '" + Describe(Cur()) + "'");
    return t;
  }

 private:
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
        s->expr = ParseTuple({}, false);
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
      ExprPtr cond = ParseTuple({}, false, /*with_condexpr=*/false);
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
    s->expr = ParseTuple({"recursive"}, false, /*with_condexpr=*/false);
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
      s->expr = ParseTuple({}, false);
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

  int loop_depth_ = 0;                                // for loops around (break/continue)
  std::vector<std::vector<std::string>> end_stack_;  // the end tags each open block waits for
  std::vector<std::string> tag_stack_;               // the open blocks' tags
};

}  // namespace

Template Parse(std::string_view source) { return Parser(Lex(source)).Run(); }

}  // namespace mtok::chat
