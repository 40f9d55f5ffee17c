// Oniguruma folds case with multi-character foldings: under (?i) its string
// "ss" matches "ß" and "st" matches "ﬆ", also across non-capturing groups
// ((?:s)(?:s) matches ß), but not across capturing groups, quantifiers or
// classes (measured with tokenizers 0.23.3). This engine folds one code
// point at a time, so it rejects patterns where the difference can show.
#include <string>

#include "common/regex_ast.h"

namespace mtok::regex_internal {

namespace {

using Folded = std::u32string;

struct Run {
  Folded text;
  uint32_t offset = 0;  // of its first literal
};

const std::vector<Folded>& MultiFoldStrings() {
  static const std::vector<Folded>* folds = [] {
    auto* out = new std::vector<Folded>;
    char32_t to[3];
    for (char32_t cp = 0xDF; cp <= 0xFB17; ++cp) {
      int n = unicode::full_fold_multi(cp, to);
      if (n) out->emplace_back(to, n);
    }
    return out;
  }();
  return *folds;
}

// Appends the case-insensitive literals of `node` to *run as long as they
// are adjacent in the same Oniguruma string; a break flushes the run.
class RunChecker {
 public:
  explicit RunChecker(const Ast& ast) : ast_(ast), folds_(MultiFoldStrings()) {}

  // Offset of the first literal of an offending run, or -1.
  long Find(uint32_t node) {
    Run run;
    Walk(node, &run);
    Flush(&run);
    return bad_at_;
  }

 private:
  void Walk(uint32_t id, Run* run) {
    const Node& n = ast_.nodes[id];
    if ((n.kind == NodeKind::kChar || n.kind == NodeKind::kSet) && n.icase_literal) {
      if (run->text.empty()) run->offset = n.offset;
      run->text.push_back(unicode::simple_fold(n.cp));
      return;
    }
    if (n.kind == NodeKind::kConcat) {
      for (uint32_t k : n.kids) Walk(k, run);
      return;
    }
    Flush(run);
    for (uint32_t k : n.kids) {
      Run inner;
      Walk(k, &inner);
      Flush(&inner);
    }
  }

  void Flush(Run* run) {
    for (const Folded& f : folds_) {
      if (bad_at_ < 0 && run->text.find(f) != Folded::npos) bad_at_ = run->offset;
    }
    run->text.clear();
  }

  const Ast& ast_;
  const std::vector<Folded>& folds_;
  long bad_at_ = -1;
};

bool HasIcaseLiteral(const Ast& ast) {
  for (const Node& n : ast.nodes) {
    if (n.icase_literal) return true;
  }
  return false;
}

}  // namespace

Status CheckNoMultiCharFolds(const Ast& ast) {
  if (!HasIcaseLiteral(ast)) return Status::Ok();
  long at = RunChecker(ast).Find(ast.root);
  if (at < 0) return Status::Ok();
  return UnsupportedError(
      "regex: unsupported case-insensitive text that spells a multi-character case folding "
      "(Oniguruma matches \"ss\" to \"\xC3\x9F\") at offset " + std::to_string(at) +
      " in pattern");
}

}  // namespace mtok::regex_internal
