// Renders a parsed template: jinja2's runtime semantics (scoping, loops,
// macros, undefined values, the sandbox's attribute rules) with the
// resource limits of mtok's Python renderer (RenderLimits) plus a step
// budget, so that every render ends.
#pragma once
#include <cstdint>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "chat/ast.h"
#include "chat/value.h"

namespace mtok::chat {

struct Limits {
  int64_t max_call_depth = 100;            // nested calls (macros, methods, globals)
  int64_t max_loop_iterations = 5000000;   // {% for %} iterations in one render
  int64_t max_sequence_length = 100000000; // longest str/list built, and the output
  int64_t max_range = 100000;              // largest range()
  int64_t max_steps = 50000000;            // expressions + statements evaluated
};

// Local time for strftime_now(); tests pin it.
using Clock = std::function<std::tm()>;

struct Scope {
  std::vector<std::pair<std::string, Value>> vars;
  std::shared_ptr<Scope> parent;
  const Value* Find(const std::string& name) const;
  void Set(const std::string& name, Value v);
};

class Interpreter {
 public:
  Interpreter(const Template& tmpl, const Limits& limits, Clock clock);
  ~Interpreter();

  // Renders with `variables` as the template context.
  std::string Render(const Dict& variables);

  // ---- used by filters, tests, methods and globals ----
  Value Eval(const Expr& e);
  Value Call(const Value& callee, const CallArgs& args);
  // The items a for loop / filter iterates: list items, dict keys, string
  // characters; Undefined iterates as empty. TypeError for the rest.
  List Iterate(const Value& v);
  Value GetAttr(const Value& obj, const std::string& name);
  Value GetItem(const Value& obj, const Value& key);
  Value ApplyFilter(const std::string& name, const Value& input, const CallArgs& args, bool soft);
  bool RunTest(const std::string& name, const Value& input, const CallArgs& args, bool soft);
  void Step();
  void CountIterations(int64_t n);
  void CheckLength(size_t length, const char* what);
  const Limits& limits() const { return limits_; }
  std::tm Now() const { return clock_(); }
  // loop(items) in a recursive for loop: the body over items, one level deeper.
  Value RecurseLoop(const Stmt& s, const Value& iterable, int depth, std::shared_ptr<Scope> outer);

 private:
  enum class Flow { kNormal, kBreak, kContinue };
  Flow Exec(const Body& body);
  Flow ExecStmt(const Stmt& s);
  Flow ExecFor(const Stmt& s, const Value& iterable, int depth);
  void ExecSet(const Stmt& s);
  std::string Capture(const Body& body);
  void Assign(const Target& t, const Value& v);
  void Emit(const std::string& text);
  Value Lookup(const std::string& name);
  Value MakeMacro(std::shared_ptr<const MacroDef> def, Value caller);
  Value InvokeMacro(const MacroDef& def, const std::shared_ptr<Scope>& closure, const CallArgs& args,
                    const Value& caller);
  Value EvalCall(const Expr& e);
  CallArgs EvalArgs(const Expr& e, size_t first);
  Value EvalCompare(const Expr& e);
  Value ApplyFilterChain(const std::vector<ExprPtr>& filters, Value v);

  const Template& tmpl_;
  Limits limits_;
  Clock clock_;
  std::shared_ptr<Scope> scope_;
  std::vector<std::shared_ptr<Scope>> macro_scopes_;  // cleared at the end (macros reference them)
  std::string* out_ = nullptr;
  int64_t steps_ = 0;
  int64_t iterations_ = 0;
  int64_t depth_ = 0;
  Dict globals_;
};

// Binary operators with Python's semantics (+ - * / // % **, ~ is Concat).
Value BinaryOp(Interpreter& in, const std::string& op, const Value& a, const Value& b);
// Python's < (for comparisons and sort); TypeError between unorderable types.
bool Less(const Value& a, const Value& b);
// `a in b`.
bool Contains(const Value& container, const Value& item);
// The value's length as len() gives it; TypeError for those without one.
int64_t Length(const Value& v);
// Raises the UndefinedError (or SecurityError) that using `v` raises.
[[noreturn]] void UndefinedFail(const Value& v);
// Python slicing of a list/tuple/str.
Value SliceValue(const Value& obj, const Value& start, const Value& stop, const Value& step);
// A bound str/dict/list method, or Undefined when there is none.
Value Method(const Value& obj, const std::string& name);
// The globals (range, namespace, dict, raise_exception, strftime_now ...).
void AddGlobals(Dict* globals);

}  // namespace mtok::chat
