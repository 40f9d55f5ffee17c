// Statements, scopes and macros.
#include "chat/interpreter.h"

#include "chat/errors.h"
#include "chat/pystr.h"

namespace mtok::chat {

void Fail(const char* type, std::string message, int line) { throw RenderError{type, std::move(message), line}; }

const Value* Scope::Find(const std::string& name) const {
  for (const auto& kv : vars) {
    if (kv.first == name) return &kv.second;
  }
  return nullptr;
}

void Scope::Set(const std::string& name, Value v) {
  for (auto& kv : vars) {
    if (kv.first == name) {
      kv.second = std::move(v);
      return;
    }
  }
  vars.emplace_back(name, std::move(v));
}

Interpreter::Interpreter(const Template& tmpl, const Limits& limits, Clock clock)
    : tmpl_(tmpl), limits_(limits), clock_(std::move(clock)) {
  AddGlobals(&globals_);
}

Interpreter::~Interpreter() {
  // Macros hold their defining scope and scopes hold macros: break the cycles.
  for (auto& s : macro_scopes_) s->vars.clear();
}

std::string Interpreter::Render(const Dict& variables) {
  scope_ = std::make_shared<Scope>();
  for (const auto& kv : variables.items) scope_->Set(kv.first.s(), kv.second);
  std::string out;
  out_ = &out;
  Exec(tmpl_.body);
  out_ = nullptr;
  return out;
}

void Interpreter::Step() {
  if (++steps_ > limits_.max_steps) {
    Fail("RenderLimitError", "template ran more than " + std::to_string(limits_.max_steps) + " evaluation steps");
  }
}

void Interpreter::CountIterations(int64_t n) {
  iterations_ += n;
  if (iterations_ > limits_.max_loop_iterations) {
    Fail("RenderLimitError", "template ran more than " + std::to_string(limits_.max_loop_iterations) + " loop iterations");
  }
}

void Interpreter::CheckLength(size_t length, const char* what) {
  if (static_cast<int64_t>(length) > limits_.max_sequence_length) {
    Fail("RenderLimitError", std::string("template built a ") + what + " of length " + std::to_string(length) +
                                 ", more than the limit of " + std::to_string(limits_.max_sequence_length));
  }
}

void Interpreter::Emit(const std::string& text) {
  out_->append(text);
  CheckLength(out_->size(), "str");
}

Value Interpreter::Lookup(const std::string& name) {
  for (const Scope* s = scope_.get(); s != nullptr; s = s->parent.get()) {
    if (const Value* v = s->Find(name)) return *v;
  }
  if (const Value* g = globals_.Find(std::string_view(name))) return *g;
  return Value::Undefined(StrRepr(name) + " is undefined");
}

Interpreter::Flow Interpreter::Exec(const Body& body) {
  for (const StmtPtr& s : body) {
    Flow f = ExecStmt(*s);
    if (f != Flow::kNormal) return f;
  }
  return Flow::kNormal;
}

std::string Interpreter::Capture(const Body& body) {
  std::string buffer;
  std::string* saved = out_;
  out_ = &buffer;
  try {
    Exec(body);
  } catch (...) {
    out_ = saved;
    throw;
  }
  out_ = saved;
  return buffer;
}

Value Interpreter::ApplyFilterChain(const std::vector<ExprPtr>& filters, Value v) {
  for (const ExprPtr& f : filters) v = ApplyFilter(f->name, v, EvalArgs(*f, 1), f->soft);
  return v;
}

// Makes `inner` the current scope until the end of the block.
struct ScopeGuard {
  ScopeGuard(std::shared_ptr<Scope>* slot, std::shared_ptr<Scope> inner) : slot_(slot), saved_(*slot) {
    *slot_ = std::move(inner);
  }
  ~ScopeGuard() { *slot_ = saved_; }
  std::shared_ptr<Scope>* slot_;
  std::shared_ptr<Scope> saved_;
};

static std::shared_ptr<Scope> Child(const std::shared_ptr<Scope>& parent) {
  auto s = std::make_shared<Scope>();
  s->parent = parent;
  return s;
}

Interpreter::Flow Interpreter::ExecStmt(const Stmt& s) {
  Step();
  try {
    switch (s.kind) {
      case StmtKind::kText:
        Emit(s.text);
        return Flow::kNormal;
      case StmtKind::kPrint:
        Emit(ToStr(Eval(*s.expr)));
        return Flow::kNormal;
      case StmtKind::kIf:
        for (const auto& branch : s.branches) {
          if (Truthy(Eval(*branch.first))) return Exec(branch.second);
        }
        return Exec(s.else_body);
      case StmtKind::kFor:
        return ExecFor(s, Eval(*s.expr), 0);
      case StmtKind::kSet:
        Assign(s.target, Eval(*s.expr));
        return Flow::kNormal;
      case StmtKind::kSetBlock:
        Assign(s.target, ApplyFilterChain(s.filters, Value::Str(Capture(s.body))));
        return Flow::kNormal;
      case StmtKind::kMacro:
        scope_->Set(s.macro->name, MakeMacro(s.macro, Value()));
        return Flow::kNormal;
      case StmtKind::kCallBlock: {
        Value caller = MakeMacro(s.macro, Value());
        CallArgs args = EvalArgs(*s.expr, 1);
        args.named.emplace_back("caller", caller);
        Emit(ToStr(Call(Eval(*s.expr->args[0]), args)));
        return Flow::kNormal;
      }
      case StmtKind::kFilterBlock: {
        ScopeGuard guard(&scope_, Child(scope_));
        Emit(ToStr(ApplyFilterChain(s.filters, Value::Str(Capture(s.body)))));
        return Flow::kNormal;
      }
      case StmtKind::kWith: {
        std::vector<Value> values;
        for (const auto& a : s.assigns) values.push_back(Eval(*a.second));
        ScopeGuard guard(&scope_, Child(scope_));
        for (size_t k = 0; k < values.size(); ++k) Assign(s.assigns[k].first, values[k]);
        return Exec(s.body);
      }
      case StmtKind::kScope: {
        // {% generation %} is a call block in transformers: its own scope, output kept.
        ScopeGuard guard(&scope_, Child(scope_));
        Emit(Capture(s.body));
        return Flow::kNormal;
      }
      case StmtKind::kBreak:
        return Flow::kBreak;
      case StmtKind::kContinue:
        return Flow::kContinue;
    }
  } catch (RenderError& e) {
    if (e.line == 0) e.line = s.line;
    throw;
  }
  return Flow::kNormal;
}

// The `loop` object of one iteration: its attributes, cycle(), and for
// recursive loops, loop(items) rendering the body over items one level deeper.
static Value LoopObject(const Stmt& s, const List& items, int64_t k, int depth, std::shared_ptr<Scope> outer) {
  const int64_t n = static_cast<int64_t>(items.size());
  auto loop = std::make_shared<Dict>();
  auto put = [&](const char* key, Value v) { loop->items.emplace_back(Value::Str(key), std::move(v)); };
  put("index", Value::Int(k + 1));
  put("index0", Value::Int(k));
  put("revindex", Value::Int(n - k));
  put("revindex0", Value::Int(n - k - 1));
  put("first", Value::Bool(k == 0));
  put("last", Value::Bool(k == n - 1));
  put("length", Value::Int(n));
  put("depth", Value::Int(depth + 1));
  put("depth0", Value::Int(depth));
  put("previtem", k > 0 ? items[k - 1] : Value::Undefined("there is no previous item"));
  put("nextitem", k + 1 < n ? items[k + 1] : Value::Undefined("there is no next item"));
  auto cycle = std::make_shared<Callable>();
  cycle->name = "bound method LoopContext.cycle";
  cycle->call = [k](Interpreter&, const CallArgs& a) {
    if (a.positional.empty()) Fail("TypeError", "no items for cycling given");
    return a.positional[k % a.positional.size()];
  };
  put("cycle", Value::MakeCallable(std::move(cycle)));
  auto fn = std::make_shared<Callable>();
  fn->name = "LoopContext " + std::to_string(k + 1) + "/" + std::to_string(n);
  fn->type_name = "LoopContext";
  fn->attrs = std::move(loop);
  const Stmt* stmt = &s;
  fn->call = [stmt, depth, outer](Interpreter& in, const CallArgs& a) -> Value {
    if (!stmt->recursive) {
      Fail("TypeError", "The loop must have the 'recursive' marker to be called recursively.");
    }
    if (a.positional.size() != 1) Fail("TypeError", "loop() takes exactly one argument");
    return in.RecurseLoop(*stmt, a.positional[0], depth + 1, outer);
  };
  return Value::MakeCallable(std::move(fn));
}

Value Interpreter::RecurseLoop(const Stmt& s, const Value& iterable, int depth, std::shared_ptr<Scope> outer) {
  ScopeGuard guard(&scope_, outer);
  std::string buffer;
  std::string* saved = out_;
  out_ = &buffer;
  try {
    ExecFor(s, iterable, depth);
  } catch (...) {
    out_ = saved;
    throw;
  }
  out_ = saved;
  return Value::Str(std::move(buffer));
}

Interpreter::Flow Interpreter::ExecFor(const Stmt& s, const Value& iterable, int depth) {
  List items = Iterate(iterable);
  CountIterations(static_cast<int64_t>(items.size()));
  std::shared_ptr<Scope> outer = scope_;
  ScopeGuard guard(&scope_, Child(scope_));
  if (s.cond) {
    List kept;
    for (const Value& item : items) {
      Assign(s.target, item);
      if (Truthy(Eval(*s.cond))) kept.push_back(item);
    }
    items = std::move(kept);
  }
  const int64_t n = static_cast<int64_t>(items.size());
  for (int64_t k = 0; k < n; ++k) {
    scope_->vars.clear();  // jinja2: what an iteration sets is gone in the next
    Assign(s.target, items[k]);
    scope_->Set("loop", LoopObject(s, items, k, depth, outer));
    Flow f = Exec(s.body);
    if (f == Flow::kBreak) break;
  }
  if (n == 0) return Exec(s.else_body);
  return Flow::kNormal;
}

void Interpreter::Assign(const Target& t, const Value& v) {
  if (!t.attr.empty()) {
    Value ns = Lookup(t.names[0]);
    if (ns.kind != Kind::kNamespace) Fail("TemplateRuntimeError", "cannot assign attribute on non-namespace object");
    if (t.attr[0] == '_') {
      Fail("SecurityError", "Chat templates cannot store underscore-prefixed attributes on a namespace, but got " +
                                StrRepr(t.attr) + ". Please rename the attribute.");
    }
    ns.ns().attrs.Set(Value::Str(t.attr), v);
    return;
  }
  if (!t.tuple) {
    scope_->Set(t.names[0], v);
    return;
  }
  if (!(v.is_list_like() || v.is_dict() || v.is_string() || v.is_undefined())) {
    TypeFail("cannot unpack non-iterable " + TypeName(v) + " object");
  }
  List items = Iterate(v);
  size_t want = t.names.size();
  if (items.size() < want) {
    Fail("ValueError", "not enough values to unpack (expected " + std::to_string(want) + ", got " +
                           std::to_string(items.size()) + ")");
  }
  if (items.size() > want) Fail("ValueError", "too many values to unpack (expected " + std::to_string(want) + ")");
  for (size_t k = 0; k < want; ++k) scope_->Set(t.names[k], items[k]);
}

Value Interpreter::MakeMacro(std::shared_ptr<const MacroDef> def, Value caller) {
  (void)caller;
  std::shared_ptr<Scope> closure = scope_;
  macro_scopes_.push_back(closure);
  auto fn = std::make_shared<Callable>();
  fn->name = "macro:" + def->name;
  fn->call = [def, closure](Interpreter& in, const CallArgs& args) {
    const Value* c = args.Named("caller");
    return in.InvokeMacro(*def, closure, args, c ? *c : Value());
  };
  return Value::MakeCallable(std::move(fn));
}

Value Interpreter::InvokeMacro(const MacroDef& def, const std::shared_ptr<Scope>& closure, const CallArgs& args,
                               const Value& caller) {
  auto scope = Child(closure);
  const std::string who = "macro " + StrRepr(def.name);
  size_t np = def.params.size();
  List extra;
  for (size_t k = 0; k < args.positional.size(); ++k) {
    if (k < np) {
      scope->Set(def.params[k], args.positional[k]);
    } else if (def.uses_varargs) {
      extra.push_back(args.positional[k]);
    } else {
      Fail("TypeError", who + " takes not more than " + std::to_string(np) + " argument(s)");
    }
  }
  Dict kwargs;
  std::vector<bool> given(np, false);
  for (size_t k = 0; k < np && k < args.positional.size(); ++k) given[k] = true;
  for (const auto& kv : args.named) {
    bool matched = false;
    for (size_t k = 0; k < np; ++k) {
      if (def.params[k] != kv.first) continue;
      if (given[k]) Fail("TypeError", who + " got multiple values for argument " + StrRepr(kv.first));
      scope->Set(kv.first, kv.second);
      given[k] = matched = true;
    }
    if (matched) continue;
    if (kv.first == "caller" && def.uses_caller) continue;
    if (!def.uses_kwargs) Fail("TypeError", who + " takes no keyword argument " + StrRepr(kv.first));
    kwargs.Set(Value::Str(kv.first), kv.second);
  }
  if (def.uses_varargs) scope->Set("varargs", Value::MakeTuple(std::move(extra)));
  if (def.uses_kwargs) scope->Set("kwargs", Value::MakeDict(std::move(kwargs)));
  if (def.uses_caller) scope->Set("caller", caller.is_undefined() && !caller.ptr ? Value::Undefined("No caller defined") : caller);
  ScopeGuard guard(&scope_, scope);
  size_t first_default = np - def.defaults.size();
  for (size_t k = 0; k < np; ++k) {
    if (given[k]) continue;
    if (k >= first_default) {
      scope->Set(def.params[k], Eval(*def.defaults[k - first_default]));
    } else {
      scope->Set(def.params[k], Value::Undefined("parameter " + StrRepr(def.params[k]) + " was not provided"));
    }
  }
  return Value::Str(Capture(def.body));
}

Value Interpreter::Call(const Value& callee, const CallArgs& args) {
  Step();
  if (callee.kind != Kind::kCallable) {
    if (callee.is_undefined()) UndefinedFail(callee);
    Fail("TypeError", StrRepr(TypeName(callee)) + " object is not callable");
  }
  if (depth_ >= limits_.max_call_depth) {
    Fail("RenderLimitError", "template calls nested deeper than " + std::to_string(limits_.max_call_depth) +
                                 " levels (runaway recursion?)");
  }
  struct DepthGuard {
    explicit DepthGuard(int64_t* d) : d_(d) { ++*d_; }
    ~DepthGuard() { --*d_; }
    int64_t* d_;
  } guard(&depth_);
  Value result = callee.fn().call(*this, args);
  if (result.is_string()) CheckLength(CodePointCount(result.s()), "str");
  return result;
}

}  // namespace mtok::chat
