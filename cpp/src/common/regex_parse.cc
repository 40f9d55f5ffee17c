// Regex syntax -> Ast, for the Oniguruma (Ruby syntax, as HF tokenizers
// compiles it) and Rust (fancy-regex) dialects. Behaviour that differs
// between them was measured against tokenizers 0.23.3 and tiktoken 0.14.0;
// whatever was not measured, or that this engine cannot reproduce, is
// rejected with UnsupportedError.
#include <string>

#include "common/regex_ast.h"
#include "common/regex_escape.h"
#include "common/utf8.h"

namespace mtok::regex_internal {

namespace {

constexpr int kMaxDepth = 200;
constexpr uint32_t kMaxCount = 100000;

class Parser {
 public:
  Parser(std::string_view pattern, RegexDialect dialect, Ast* ast)
      : p_(pattern), onig_(dialect == RegexDialect::kOniguruma), ast_(ast) {}

  Status Run() {
    Flags flags;
    uint32_t root = 0;
    MTOK_RETURN_IF_ERROR(ParseAlt(flags, 0, /*plain=*/true, &root));
    if (!AtEnd()) return Malformed("unmatched ')'", i_);
    ast_->root = root;
    return Status::Ok();
  }

 private:
  bool AtEnd() const { return i_ >= p_.size(); }
  char Peek(size_t k = 0) const { return i_ + k < p_.size() ? p_[i_ + k] : '\0'; }

  Status Unsupported(const std::string& what, size_t at) const {
    return UnsupportedError("regex: unsupported " + what + " at offset " + std::to_string(at) +
                            " in pattern");
  }
  Status Malformed(const std::string& what, size_t at) const {
    return FormatError("regex: " + what + " at offset " + std::to_string(at) + " in pattern");
  }

  uint32_t Add(Node node) {
    ast_->nodes.push_back(std::move(node));
    return static_cast<uint32_t>(ast_->nodes.size() - 1);
  }
  uint32_t AddSet(CharSet set) {
    ast_->sets.push_back(std::move(set));
    Node n;
    n.kind = NodeKind::kSet;
    n.set = static_cast<uint32_t>(ast_->sets.size() - 1);
    return Add(std::move(n));
  }
  uint32_t AddList(NodeKind kind, std::vector<uint32_t> kids) {
    if (kids.size() == 1) return kids[0];
    Node n;
    n.kind = kids.empty() ? NodeKind::kEmpty : kind;
    n.kids = std::move(kids);
    return Add(std::move(n));
  }
  uint32_t AddWrap(NodeKind kind, uint32_t kid, bool negate = false) {
    Node n;
    n.kind = kind;
    n.negate = negate;
    n.kids = {kid};
    return Add(std::move(n));
  }

  // Alternatives up to ')' or the end; the ')' is left for the caller.
  // `plain`: the top level or a (?:..) group, the only places where an inline
  // (?flags) stays in its group in fancy-regex (elsewhere it leaks out).
  Status ParseAlt(Flags flags, int depth, bool plain, uint32_t* out) {
    std::vector<uint32_t> alts;
    for (;;) {
      uint32_t seq = 0;
      MTOK_RETURN_IF_ERROR(ParseSeq(flags, depth, plain, &seq));
      alts.push_back(seq);
      if (Peek() != '|' || AtEnd()) break;
      ++i_;
    }
    *out = AddList(NodeKind::kAlt, std::move(alts));
    return Status::Ok();
  }

  // `flags` belongs to the enclosing group: in the Rust dialect an inline
  // (?i) changes it for the rest of the group, later alternatives included.
  Status ParseSeq(Flags& flags, int depth, bool plain, uint32_t* out) {
    std::vector<uint32_t> items;
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      size_t start = i_;
      if (IsInlineFlags()) {
        if (!onig_ && !plain) {
          return Unsupported("(?flags) in a capturing, lookahead or atomic group", start);
        }
        Flags changed = flags;
        MTOK_RETURN_IF_ERROR(ParseFlags(&changed));
        ++i_;  // ')'
        if (IsQuantifier()) return Malformed("quantifier after (?flags)", i_);
        if (!onig_) {
          flags = changed;
          continue;
        }
        // Oniguruma: the rest of the group, every alternative, takes the flags.
        uint32_t rest = 0;
        MTOK_RETURN_IF_ERROR(Nested(depth, start));
        MTOK_RETURN_IF_ERROR(ParseAlt(changed, depth + 1, /*plain=*/true, &rest));
        items.push_back(rest);
        break;
      }
      uint32_t atom = 0;
      bool quantifiable = true;
      MTOK_RETURN_IF_ERROR(ParseAtom(flags, depth, &atom, &quantifiable));
      MTOK_RETURN_IF_ERROR(ParseQuantifiers(quantifiable, &atom));
      items.push_back(atom);
    }
    *out = AddList(NodeKind::kConcat, std::move(items));
    return Status::Ok();
  }

  Status Nested(int depth, size_t at) const {
    return depth + 1 > kMaxDepth ? Unsupported("nesting deeper than 200 groups", at) : Status::Ok();
  }

  Status ParseAtom(const Flags& flags, int depth, uint32_t* out, bool* quantifiable) {
    size_t at = i_;
    char c = Peek();
    switch (c) {
      case '(':
        return ParseGroup(flags, depth, out, quantifiable);
      case '[': {
        CharSet set;
        MTOK_RETURN_IF_ERROR(ParseClass(flags, depth, &set, nullptr));
        *out = AddSet(std::move(set));
        return Status::Ok();
      }
      case '.': {
        ++i_;
        CharSet set;
        set.Add('\n');
        set.Negate();
        if (flags.dotall) set.Add('\n');
        *out = AddSet(std::move(set));
        return Status::Ok();
      }
      case '^':
      case '$': {
        ++i_;
        bool line = onig_ || flags.multiline;
        Node n;
        n.kind = NodeKind::kAssert;
        if (c == '^') {
          n.assert_kind = onig_ ? AssertKind::kLineBeginNotAtEnd
                                : line ? AssertKind::kLineBegin : AssertKind::kTextBegin;
        } else {
          n.assert_kind = line ? AssertKind::kLineEnd : AssertKind::kTextEnd;
        }
        *out = Add(std::move(n));
        *quantifiable = false;
        return Status::Ok();
      }
      case '\\': {
        Escape e;
        MTOK_RETURN_IF_ERROR(ParseEscape(p_, &i_, onig_, flags, /*in_class=*/false, &e));
        if (e.kind == Escape::kAssert) {
          Node n;
          n.kind = NodeKind::kAssert;
          n.assert_kind = e.assert_kind;
          *out = Add(std::move(n));
          *quantifiable = false;
          return Status::Ok();
        }
        if (e.kind == Escape::kSet) {
          *out = AddSet(std::move(e.set));
          return Status::Ok();
        }
        return Literal(e.cp, flags, at, out);
      }
      case '*':
      case '+':
      case '?':
        return Malformed("quantifier without anything to repeat", at);
      case '{':
        if (IsQuantifier()) return Unsupported("quantifier without anything to repeat", at);
        break;
      default:
        break;
    }
    int len = 1;
    char32_t cp = utf8::decode(p_, i_, &len);
    i_ += len;
    return Literal(cp, flags, at, out);
  }

  Status Literal(char32_t cp, const Flags& flags, size_t at, uint32_t* out) {
    std::vector<char32_t> orbit = {cp};
    if (flags.icase) {
      char32_t folded[3];
      if (onig_ && unicode::full_fold_multi(cp, folded)) {
        return Unsupported("case-insensitive character with a multi-character case folding", at);
      }
      orbit = CaseOrbit(cp);
    }
    if (orbit.size() > 1) {
      CharSet set;
      for (char32_t o : orbit) set.Add(o);
      *out = AddSet(std::move(set));
    } else {
      Node n;
      n.kind = NodeKind::kChar;
      *out = Add(std::move(n));
    }
    Node& node = ast_->nodes[*out];
    node.cp = cp;
    node.icase_literal = flags.icase;
    node.offset = static_cast<uint32_t>(at);
    return Status::Ok();
  }

  // After '(' and '?': a flag group "(?i)" or "(?i-m:" rather than (?: (?= ...
  bool IsInlineFlags() const {
    if (Peek() != '(' || Peek(1) != '?') return false;
    for (size_t k = 2; i_ + k < p_.size(); ++k) {
      char c = p_[i_ + k];
      if (c == ')') return k > 2;
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-')) return false;
    }
    return false;
  }

  // Parses "(?flags" up to the ':' or ')' (left unconsumed).
  Status ParseFlags(Flags* flags) {
    i_ += 2;
    bool on = true, saw_minus = false;
    size_t start = i_;
    while (Peek() != ')' && Peek() != ':') {
      if (AtEnd()) return Malformed("unterminated group options", start - 2);
      size_t at = i_;
      char c = p_[i_++];
      if (c == '-' && !saw_minus) {
        on = false;
        saw_minus = true;
      } else if (c == 'i') {
        flags->icase = on;
      } else if (c == 'm') {
        (onig_ ? flags->dotall : flags->multiline) = on;  // Ruby's m is Perl's s
      } else if (c == 's' && !onig_) {
        flags->dotall = on;
      } else if (c == 's') {
        return Malformed("undefined group option (?s)", at);
      } else {
        return Unsupported(std::string("flag '") + c + "'", at);
      }
    }
    return Status::Ok();
  }

  Status ParseGroup(const Flags& flags, int depth, uint32_t* out, bool* quantifiable) {
    size_t at = i_;
    MTOK_RETURN_IF_ERROR(Nested(depth, at));
    NodeKind wrap = NodeKind::kCapture;
    bool negate = false;
    Flags inner = flags;
    if (Peek(1) != '?') {
      ++i_;
    } else {
      char c = Peek(2);
      if (c == ':' || c == '=' || c == '!' || c == '>') {
        i_ += 3;
        wrap = c == ':' ? NodeKind::kEmpty : c == '>' ? NodeKind::kAtomic : NodeKind::kLook;
        negate = c == '!';
        *quantifiable = wrap != NodeKind::kLook;
      } else if (c == '<' && (Peek(3) == '=' || Peek(3) == '!')) {
        return Unsupported("lookbehind", at);
      } else if (c == '<' || c == 'P' || c == '\'') {
        return Unsupported("named group", at);
      } else if (c == '#') {
        return Unsupported("comment group", at);
      } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-') {
        MTOK_RETURN_IF_ERROR(ParseFlags(&inner));
        if (Peek() != ':') return Malformed("unterminated group options", at);
        ++i_;
        wrap = NodeKind::kEmpty;
      } else {
        return Unsupported("group syntax '(?" + std::string(1, c) + "'", at);
      }
    }
    uint32_t body = 0;
    MTOK_RETURN_IF_ERROR(ParseAlt(inner, depth + 1, wrap == NodeKind::kEmpty, &body));
    if (Peek() != ')' || AtEnd()) return Malformed("missing ')'", at);
    ++i_;
    *out = wrap == NodeKind::kEmpty ? body : AddWrap(wrap, body, negate);
    return Status::Ok();
  }

  // '[' ... ']' into *out; *negated_out (if given) tells whether it was [^..].
  Status ParseClass(const Flags& flags, int depth, CharSet* out, bool* negated_out) {
    size_t at = i_;
    MTOK_RETURN_IF_ERROR(Nested(depth, at));
    ++i_;
    bool negated = false;
    if (Peek() == '^') {
      negated = true;
      ++i_;
    }
    if (Peek() == ':') return Unsupported("POSIX bracket expression", at);
    CharSet items;
    bool negated_item = false, first = true;
    for (;; first = false) {
      if (AtEnd()) return Malformed("unterminated character class", at);
      size_t item_at = i_;
      char c = Peek();
      if (c == ']' && !first) {
        ++i_;
        break;
      }
      if (c == '[') {
        if (Peek(1) == ':') return Unsupported("POSIX bracket expression", item_at);
        CharSet sub;
        bool sub_negated = false;
        MTOK_RETURN_IF_ERROR(ParseClass(flags, depth + 1, &sub, &sub_negated));
        items.Add(sub);
        negated_item |= sub_negated;
        continue;
      }
      if ((c == '&' || c == '-' || c == '~') && Peek(1) == c) {
        return Unsupported("class set operation '" + std::string(2, c) + "'", item_at);
      }
      Escape lo;
      MTOK_RETURN_IF_ERROR(ParseClassAtom(flags, &lo));
      if (lo.kind == Escape::kSet) {
        if (Peek() == '-' && Peek(1) != ']') return Malformed("range from a class escape", i_);
        items.Add(lo.set);
        negated_item |= lo.negated;
        continue;
      }
      if (Peek() == '-' && Peek(1) != ']' && i_ + 1 < p_.size()) {
        ++i_;
        Escape hi;
        MTOK_RETURN_IF_ERROR(ParseClassAtom(flags, &hi));
        if (hi.kind == Escape::kSet) return Malformed("range to a class escape", item_at);
        if (hi.cp < lo.cp) return Malformed("range out of order", item_at);
        items.Add(lo.cp, hi.cp);
      } else {
        items.Add(lo.cp);
      }
    }
    if (flags.icase) {
      if (onig_ && negated_item) {
        return Unsupported("negated item in a case-insensitive class (Oniguruma)", at);
      }
      items.CloseCase();
      if (onig_ && items.HasMultiCharFold()) {
        return Unsupported(
            "case-insensitive class with a character that has a multi-character case folding", at);
      }
    }
    if (negated) items.Negate();
    if (negated_out) *negated_out = negated;
    *out = std::move(items);
    return Status::Ok();
  }

  Status ParseClassAtom(const Flags& flags, Escape* e) {
    if (Peek() == '\\') return ParseEscape(p_, &i_, onig_, flags, /*in_class=*/true, e);
    int len = 1;
    e->kind = Escape::kLiteral;
    e->cp = utf8::decode(p_, i_, &len);
    i_ += len;
    return Status::Ok();
  }

  // "{n}", "{n,}" or "{n,m}" at i_; sets *end past the '}'.
  bool Braces(uint32_t* min, uint32_t* max, size_t* end) const {
    size_t k = i_ + 1;
    auto number = [&](uint32_t* v) {
      size_t s = k;
      uint64_t x = 0;
      while (k < p_.size() && p_[k] >= '0' && p_[k] <= '9' && x <= kMaxCount) x = x * 10 + (p_[k++] - '0');
      *v = static_cast<uint32_t>(std::min<uint64_t>(x, kMaxCount + 1));
      return k > s;
    };
    if (Peek() != '{' || !number(min)) return false;
    *max = *min;
    if (k < p_.size() && p_[k] == ',') {
      ++k;
      *max = kInfinite;
      if (k < p_.size() && p_[k] != '}' && !number(max)) return false;
    }
    if (k >= p_.size() || p_[k] != '}') return false;
    *end = k + 1;
    return true;
  }

  // '{' whose contents look like a count but are not one of the three forms.
  bool OddBraces() const {
    if (Peek() != '{') return false;
    for (size_t k = i_ + 1; k < p_.size(); ++k) {
      char c = p_[k];
      if (c == '}') return k > i_ + 1;
      if (!(c == ',' || c == ' ' || (c >= '0' && c <= '9'))) return false;
    }
    return false;
  }

  bool IsQuantifier() const {
    uint32_t a, b;
    size_t end;
    char c = Peek();
    return !AtEnd() && (c == '*' || c == '+' || c == '?' || Braces(&a, &b, &end) || OddBraces());
  }

  Status ParseQuantifiers(bool quantifiable, uint32_t* atom) {
    if (!IsQuantifier()) return Status::Ok();
    size_t at = i_;
    if (!quantifiable) return Unsupported("quantifier on an assertion or lookahead", at);
    uint32_t min = 0, max = kInfinite;
    bool braces = false;
    char c = Peek();
    if (c == '*' || c == '+' || c == '?') {
      min = c == '+' ? 1 : 0;
      max = c == '?' ? 1 : kInfinite;
      ++i_;
    } else {
      size_t end = 0;
      if (!Braces(&min, &max, &end)) return Unsupported("repetition count syntax", at);
      if (min > kMaxCount || (max != kInfinite && max > kMaxCount)) {
        return Unsupported("repetition count above 100000", at);
      }
      if (max < min) return Unsupported("repetition {n,m} with m < n", at);
      i_ = end;
      braces = true;
    }
    RepeatMode mode = RepeatMode::kGreedy;
    if (Peek() == '?' || Peek() == '+') mode = p_[i_++] == '?' ? RepeatMode::kLazy : RepeatMode::kPossessive;
    if (onig_ && braces && mode == RepeatMode::kPossessive) {
      // Ruby syntax: x{n,m}+ is (?:x{n,m})+, not possessive.
      MTOK_RETURN_IF_ERROR(Repeat(min, max, RepeatMode::kGreedy, at, atom));
      MTOK_RETURN_IF_ERROR(Repeat(1, kInfinite, RepeatMode::kGreedy, at, atom));
    } else if (onig_ && braces && mode == RepeatMode::kLazy && min == max) {
      // Ruby syntax: x{n}? is (?:x{n})?.
      MTOK_RETURN_IF_ERROR(Repeat(min, max, RepeatMode::kGreedy, at, atom));
      MTOK_RETURN_IF_ERROR(Repeat(0, 1, RepeatMode::kGreedy, at, atom));
    } else {
      MTOK_RETURN_IF_ERROR(Repeat(min, max, mode, at, atom));
    }
    if (IsQuantifier()) return Unsupported("quantifier after a quantifier", i_);
    return Status::Ok();
  }

  // Wraps *atom in a repetition. A loop over something that can match empty
  // is where engines disagree (and could spin), so it is refused.
  Status Repeat(uint32_t min, uint32_t max, RepeatMode mode, size_t at, uint32_t* atom) {
    if (max > 1 && Nullable(*ast_, *atom)) {
      return Unsupported("repetition of a subpattern that can match empty", at);
    }
    Node n;
    n.kind = NodeKind::kRepeat;
    n.kids = {*atom};
    n.min = min;
    n.max = max;
    n.mode = mode;
    *atom = Add(std::move(n));
    return Status::Ok();
  }

  std::string_view p_;
  bool onig_;
  Ast* ast_;
  size_t i_ = 0;
};

}  // namespace

bool Nullable(const Ast& ast, uint32_t node) {
  const Node& n = ast.nodes[node];
  switch (n.kind) {
    case NodeKind::kChar:
    case NodeKind::kSet:
      return false;
    case NodeKind::kConcat:
      for (uint32_t k : n.kids) {
        if (!Nullable(ast, k)) return false;
      }
      return true;
    case NodeKind::kAlt:
      for (uint32_t k : n.kids) {
        if (Nullable(ast, k)) return true;
      }
      return false;
    case NodeKind::kRepeat:
      return n.min == 0 || Nullable(ast, n.kids[0]);
    case NodeKind::kAtomic:
    case NodeKind::kCapture:
      return Nullable(ast, n.kids[0]);
    default:
      return true;  // kEmpty, kAssert, kLook
  }
}

Status ParseRegex(std::string_view pattern, RegexDialect dialect, Ast* ast) {
  size_t bad = 0;
  if (!utf8::validate(pattern, &bad)) {
    return FormatError("regex: invalid UTF-8 at offset " + std::to_string(bad) + " in pattern");
  }
  MTOK_RETURN_IF_ERROR(Parser(pattern, dialect, ast).Run());
  if (dialect == RegexDialect::kOniguruma) MTOK_RETURN_IF_ERROR(CheckNoMultiCharFolds(*ast));
  return Status::Ok();
}

}  // namespace mtok::regex_internal
