// Regex: parse (regex_parse.cc), compile (regex_compile.cc), then search
// with the backtracking matcher (regex_vm.cc).
#include "common/regex.h"

#include <string>

#include "common/regex_program.h"
#include "common/utf8.h"

namespace mtok {

using regex_internal::Matcher;
using regex_internal::MatchResult;
using regex_internal::Program;

namespace {

// Leftmost match at or after `from`, or kNoMatch; kOverBudget (with *begin
// at the attempt) stops the search.
MatchResult Search(const Program& prog, Matcher* m, std::string_view text, size_t from,
                   size_t* begin, size_t* end) {
  const size_t n = text.size();
  for (size_t s = from; s <= n;) {
    if (prog.has_first_bytes) {
      // Such a pattern cannot match empty, so nothing matches at the end.
      while (s < n && !prog.MayStartWith(static_cast<unsigned char>(text[s]))) ++s;
      if (s >= n) return MatchResult::kNoMatch;
    }
    MatchResult r = m->MatchAt(s, end);
    if (r != MatchResult::kNoMatch) {
      *begin = s;  // the match, or the attempt over budget
      return r;
    }
    if (s == n) break;
    s += utf8::seq_len(static_cast<unsigned char>(text[s]));
  }
  return MatchResult::kNoMatch;
}

}  // namespace

Regex::Regex(std::unique_ptr<Program> program) : program_(std::move(program)) {}
Regex::~Regex() = default;

Status Regex::Compile(std::string_view pattern, std::unique_ptr<Regex>* out) {
  return Compile(pattern, RegexDialect::kOniguruma, out);
}

Status Regex::Compile(std::string_view pattern, RegexDialect dialect, std::unique_ptr<Regex>* out) {
  regex_internal::Ast ast;
  MTOK_RETURN_IF_ERROR(regex_internal::ParseRegex(pattern, dialect, &ast));
  auto program = std::make_unique<Program>();
  MTOK_RETURN_IF_ERROR(regex_internal::CompileAst(ast, program.get()));
  out->reset(new Regex(std::move(program)));
  return Status::Ok();
}

Status Regex::FindAll(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const {
  Matcher m(*program_, text);
  const size_t n = text.size();
  size_t next = 0, begin = 0, end = 0;
  bool matched_before = false;
  size_t last_end = 0;
  while (next <= n) {
    MatchResult r = Search(*program_, &m, text, next, &begin, &end);
    if (r == MatchResult::kNoMatch) break;
    if (r == MatchResult::kOverBudget) {
      return EncodeError("regex: a match attempt at byte " + std::to_string(begin) +
                         " of a " + std::to_string(n) +
                         "-byte piece exceeded the backtracking budget (the pattern backtracks "
                         "exponentially on this text, e.g. nested quantifiers like (a+)+)");
    }
    if (begin == end) {
      next = end < n ? end + utf8::seq_len(static_cast<unsigned char>(text[end])) : n + 1;
      if (matched_before && end == last_end) continue;
    } else {
      next = end;
    }
    matched_before = true;
    last_end = end;
    out->emplace_back(begin, end);
  }
  return Status::Ok();
}

}  // namespace mtok
