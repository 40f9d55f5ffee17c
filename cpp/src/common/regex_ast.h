// The parsed form of a regex (regex_parse.cc) that regex_compile.cc turns
// into a program. Nodes live in one vector and refer to each other by index.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/regex.h"
#include "common/regex_charset.h"
#include "mtok/status.h"

namespace mtok::regex_internal {

constexpr uint32_t kInfinite = UINT32_MAX;

// kLineBegin is Rust's (?m)^ (it matches at the end of "a\n"); Oniguruma's
// ^ does not match at the end of the text (kLineBeginNotAtEnd).
enum class AssertKind : uint8_t { kTextBegin, kTextEnd, kLineBegin, kLineBeginNotAtEnd, kLineEnd };
enum class RepeatMode : uint8_t { kGreedy, kLazy, kPossessive };

enum class NodeKind : uint8_t {
  kEmpty,    // matches ""
  kChar,     // the code point `cp`
  kSet,      // one code point of sets[set]
  kAssert,   // zero-width test `assert_kind`
  kConcat,   // kids in order
  kAlt,      // kids in order of preference
  kRepeat,   // kids[0], min..max times (max may be kInfinite), `mode`
  kLook,     // lookahead at kids[0]; `negate` for (?!..)
  kAtomic,   // kids[0], never backtracked into once it matched
  kCapture,  // a capturing group around kids[0]
};

struct Node {
  NodeKind kind = NodeKind::kEmpty;
  bool negate = false;
  // kChar/kSet that was written as one literal character under (?i);
  // `cp` is then that character.
  bool icase_literal = false;
  AssertKind assert_kind = AssertKind::kTextBegin;
  RepeatMode mode = RepeatMode::kGreedy;
  char32_t cp = 0;
  uint32_t offset = 0;  // icase_literal: where it is in the pattern
  uint32_t set = 0;
  uint32_t min = 0, max = 0;
  std::vector<uint32_t> kids;
};

struct Ast {
  std::vector<Node> nodes;
  std::vector<CharSet> sets;
  uint32_t root = 0;
};

// Whether the node can match the empty string.
bool Nullable(const Ast& ast, uint32_t node);

Status ParseRegex(std::string_view pattern, RegexDialect dialect, Ast* ast);

// Oniguruma matches "ss" against "ß" under (?i) (multi-character case
// folding), which this engine does not do: rejects case-insensitive literal
// runs that spell such a folding.
Status CheckNoMultiCharFolds(const Ast& ast);

}  // namespace mtok::regex_internal
