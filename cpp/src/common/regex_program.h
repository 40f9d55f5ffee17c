// The compiled form of a regex: instructions for the backtracking matcher in
// regex_vm.cc, produced from an Ast by regex_compile.cc.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/regex_ast.h"
#include "common/regex_charset.h"

namespace mtok::regex_internal {

enum class Op : uint8_t {
  kChar,         // match code point `arg`
  kSet,          // match one code point of tables[arg]
  kRepeatSet,    // tables[arg] repeated min..max times, `mode`
  kSplit,        // continue at `arg`; on failure, at `alt`
  kJmp,          // continue at `arg`
  kAssert,       // zero-width `assert_kind`
  kLookBegin,    // lookahead using slot `arg`; `alt` is the pc after its kLookEnd
  kLookEnd,      // the lookahead body matched
  kAtomicBegin,  // atomic group using slot `arg`
  kAtomicEnd,    // drop the body's backtrack points
  kMatch,
};

struct Inst {
  Op op = Op::kMatch;
  RepeatMode mode = RepeatMode::kGreedy;
  AssertKind assert_kind = AssertKind::kTextBegin;
  bool negate = false;  // kLookBegin / kLookEnd
  uint32_t arg = 0;
  uint32_t alt = 0;
  uint32_t min = 0, max = 0;
};

struct Program {
  std::vector<Inst> insts;
  std::vector<CharTable> tables;
  uint32_t num_slots = 0;
  // When the pattern cannot match empty: the bytes a match can start with.
  bool has_first_bytes = false;
  uint64_t first_bytes[4] = {0, 0, 0, 0};

  bool MayStartWith(unsigned char b) const { return (first_bytes[b >> 6] >> (b & 63)) & 1; }
};

Status CompileAst(const Ast& ast, Program* program);

enum class MatchResult : uint8_t { kNoMatch, kMatch, kOverBudget };

// Backtracking budget of one match attempt, counted in resumptions of a
// backtrack point: the unit of Oniguruma's retry-limit-in-match, whose
// default (10,000,000, kept by HF tokenizers) is the base. It grows with the
// text the attempt has reached, so a linear-time pattern never meets it on a
// long input; nested quantifiers such as (a+)+b meet it in a fraction of a
// second instead of running for years.
constexpr uint64_t kRetryBase = 10'000'000;
constexpr uint64_t kRetryPerByte = 64;

// Backtracking matcher over one text; reusable for many MatchAt calls.
class Matcher {
 public:
  Matcher(const Program& program, std::string_view text);
  // Whether the pattern matches at byte offset `start` (sets *end if so), or
  // kOverBudget when the attempt ran out of backtracking budget.
  MatchResult MatchAt(size_t start, size_t* end);

 private:
  // A backtrack point; see regex_vm.cc for the kinds.
  struct Frame {
    uint32_t kind;
    uint32_t pc;
    size_t pos;
    size_t aux;
  };
  bool Check(AssertKind kind, size_t pos) const;
  // Whether the attempt from `start` may keep backtracking after one more
  // resumption at `pos`.
  bool WithinBudget(size_t start, size_t pos);

  const Program& prog_;
  std::string_view text_;
  std::vector<Frame> stack_;
  std::vector<size_t> slots_;
  uint64_t retries_ = 0, retry_limit_ = 0;
  size_t furthest_ = 0;  // the furthest position a failure happened at
};

}  // namespace mtok::regex_internal
