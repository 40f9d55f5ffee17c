// The parsed template: expressions and statements, as jinja2's parser
// builds them (jinja2.nodes), reduced to what rendering needs.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "chat/value.h"

namespace mtok::chat {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

enum class ExprKind : uint8_t {
  kConst,     // value
  kName,      // name
  kGetAttr,   // args[0].name
  kGetItem,   // args[0][args[1]]
  kSlice,     // args[0][args[1]:args[2]:args[3]] (null parts omitted)
  kCall,      // args[0](args[1..], kwargs)
  kFilter,    // args[0] | name(args[1..], kwargs); args[0] null in filter blocks
  kTest,      // args[0] is name(args[1..], kwargs)
  kNeg,       // -args[0]
  kPos,       // +args[0]
  kNot,       // not args[0]
  kBinary,    // args[0] name args[1]: + - * / // % **
  kConcat,    // args joined with ~
  kAnd,
  kOr,
  kCompare,   // args[0] ops[0] args[1] ops[1] args[2] ...
  kCondExpr,  // args[1] if args[0] else args[2] (args[2] may be null)
  kList,
  kTuple,
  kDict,      // args: key, value, key, value ...
};

struct Expr {
  ExprKind kind;
  int line = 0;
  Value value;
  std::string name;
  std::vector<ExprPtr> args;
  std::vector<std::pair<std::string, ExprPtr>> kwargs;
  ExprPtr star_args, star_kwargs;  // f(*a, **k)
  std::vector<std::string> ops;    // kCompare
  bool soft = false;               // kFilter/kTest inside an if: unknown names fail when run
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

// Assignment target: a name, a tuple of names, or namespace.attr.
struct Target {
  std::vector<std::string> names;
  bool tuple = false;
  std::string attr;  // set: names[0].attr = ...
};

enum class StmtKind : uint8_t {
  kText, kPrint, kIf, kFor, kSet, kSetBlock, kMacro, kCallBlock, kFilterBlock, kWith, kBreak, kContinue,
  kScope,  // a body run in place ({% generation %})
};

struct MacroDef {
  std::string name;
  std::vector<std::string> params;
  std::vector<ExprPtr> defaults;  // aligned to the last params
  Body body;
  bool uses_caller = false, uses_varargs = false, uses_kwargs = false;
};

struct Stmt {
  StmtKind kind;
  int line = 0;
  std::string text;                                 // kText
  ExprPtr expr;                                     // print, for iter, set value, call block call
  ExprPtr cond;                                     // for ... if cond
  std::vector<std::pair<ExprPtr, Body>> branches;   // if / elif
  Body body, else_body;
  Target target;                                    // for, set, set block
  std::vector<ExprPtr> filters;                     // set block / filter block chain
  std::vector<std::pair<Target, ExprPtr>> assigns;  // with
  std::shared_ptr<MacroDef> macro;                  // macro, call block's caller
  bool recursive = false;
};

struct Template {
  Body body;
};

}  // namespace mtok::chat
