#include "common/regex_escape.h"

#include <cctype>
#include <string>

namespace mtok::regex_internal {

namespace {

using unicode::Category;

constexpr uint32_t Bit(Category c) { return 1u << static_cast<unsigned>(c); }
constexpr uint32_t kLetters = Bit(Category::Lu) | Bit(Category::Ll) | Bit(Category::Lt) |
                              Bit(Category::Lm) | Bit(Category::Lo);
constexpr uint32_t kMarks = Bit(Category::Mn) | Bit(Category::Mc) | Bit(Category::Me);
constexpr uint32_t kNumbers = Bit(Category::Nd) | Bit(Category::Nl) | Bit(Category::No);
constexpr uint32_t kPunct = Bit(Category::Pc) | Bit(Category::Pd) | Bit(Category::Ps) |
                            Bit(Category::Pe) | Bit(Category::Pi) | Bit(Category::Pf) |
                            Bit(Category::Po);
constexpr uint32_t kSymbols =
    Bit(Category::Sm) | Bit(Category::Sc) | Bit(Category::Sk) | Bit(Category::So);
constexpr uint32_t kSeparators = Bit(Category::Zs) | Bit(Category::Zl) | Bit(Category::Zp);
constexpr uint32_t kOther = Bit(Category::Cc) | Bit(Category::Cf) | Bit(Category::Cs) |
                            Bit(Category::Co) | Bit(Category::Cn);

// General_Category names and aliases, compared after LooseName(). Both
// engines match names loosely (case, spaces, '_' and '-' ignored).
struct PropertyName {
  const char* name;
  uint32_t mask;
};
constexpr PropertyName kCategoryNames[] = {
    {"l", kLetters}, {"letter", kLetters},
    {"lc", Bit(Category::Lu) | Bit(Category::Ll) | Bit(Category::Lt)},
    {"casedletter", Bit(Category::Lu) | Bit(Category::Ll) | Bit(Category::Lt)},
    {"lu", Bit(Category::Lu)}, {"uppercaseletter", Bit(Category::Lu)},
    {"ll", Bit(Category::Ll)}, {"lowercaseletter", Bit(Category::Ll)},
    {"lt", Bit(Category::Lt)}, {"titlecaseletter", Bit(Category::Lt)},
    {"lm", Bit(Category::Lm)}, {"modifierletter", Bit(Category::Lm)},
    {"lo", Bit(Category::Lo)}, {"otherletter", Bit(Category::Lo)},
    {"m", kMarks}, {"mark", kMarks}, {"combiningmark", kMarks},
    {"mn", Bit(Category::Mn)}, {"nonspacingmark", Bit(Category::Mn)},
    {"mc", Bit(Category::Mc)}, {"spacingmark", Bit(Category::Mc)},
    {"me", Bit(Category::Me)}, {"enclosingmark", Bit(Category::Me)},
    {"n", kNumbers}, {"number", kNumbers},
    {"nd", Bit(Category::Nd)}, {"decimalnumber", Bit(Category::Nd)}, {"digit", Bit(Category::Nd)},
    {"nl", Bit(Category::Nl)}, {"letternumber", Bit(Category::Nl)},
    {"no", Bit(Category::No)}, {"othernumber", Bit(Category::No)},
    {"p", kPunct}, {"punctuation", kPunct},
    {"pc", Bit(Category::Pc)}, {"connectorpunctuation", Bit(Category::Pc)},
    {"pd", Bit(Category::Pd)}, {"dashpunctuation", Bit(Category::Pd)},
    {"ps", Bit(Category::Ps)}, {"openpunctuation", Bit(Category::Ps)},
    {"pe", Bit(Category::Pe)}, {"closepunctuation", Bit(Category::Pe)},
    {"pi", Bit(Category::Pi)}, {"initialpunctuation", Bit(Category::Pi)},
    {"pf", Bit(Category::Pf)}, {"finalpunctuation", Bit(Category::Pf)},
    {"po", Bit(Category::Po)}, {"otherpunctuation", Bit(Category::Po)},
    {"s", kSymbols}, {"symbol", kSymbols},
    {"sm", Bit(Category::Sm)}, {"mathsymbol", Bit(Category::Sm)},
    {"sc", Bit(Category::Sc)}, {"currencysymbol", Bit(Category::Sc)},
    {"sk", Bit(Category::Sk)}, {"modifiersymbol", Bit(Category::Sk)},
    {"so", Bit(Category::So)}, {"othersymbol", Bit(Category::So)},
    {"z", kSeparators}, {"separator", kSeparators},
    {"zs", Bit(Category::Zs)}, {"spaceseparator", Bit(Category::Zs)},
    {"zl", Bit(Category::Zl)}, {"lineseparator", Bit(Category::Zl)},
    {"zp", Bit(Category::Zp)}, {"paragraphseparator", Bit(Category::Zp)},
    {"c", kOther}, {"other", kOther},
    {"cc", Bit(Category::Cc)}, {"control", Bit(Category::Cc)}, {"cntrl", Bit(Category::Cc)},
    {"cf", Bit(Category::Cf)}, {"format", Bit(Category::Cf)},
    {"cs", Bit(Category::Cs)}, {"surrogate", Bit(Category::Cs)},
    {"co", Bit(Category::Co)}, {"privateuse", Bit(Category::Co)},
    {"cn", Bit(Category::Cn)}, {"unassigned", Bit(Category::Cn)},
};

std::string LooseName(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '_' || c == '-') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

Status Unsupported(const std::string& what, size_t at) {
  return UnsupportedError("regex: unsupported " + what + " at offset " + std::to_string(at) +
                          " in pattern");
}
Status Malformed(const std::string& what, size_t at) {
  return FormatError("regex: " + what + " at offset " + std::to_string(at) + " in pattern");
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads exactly `n` hex digits at p[*i].
bool FixedHex(std::string_view p, size_t* i, int n, char32_t* out) {
  char32_t v = 0;
  for (int k = 0; k < n; ++k) {
    if (*i + k >= p.size() || HexValue(p[*i + k]) < 0) return false;
    v = v * 16 + HexValue(p[*i + k]);
  }
  *i += n;
  *out = v;
  return true;
}

// \w: Unicode word characters. Oniguruma adds ² ³ ¹ ¼ ½ ¾ outside classes
// (its Latin-1 ctype table); the Rust regex crate adds Join_Control.
void AddWordClass(bool onig, bool in_class, CharSet* set) {
  set->AddWord();
  if (!onig) {
    set->Add(0x200C, 0x200D);
  } else if (!in_class) {
    for (char32_t cp : {0xB2, 0xB3, 0xB9, 0xBC, 0xBD, 0xBE}) set->Add(cp);
  }
}

Status PropertySet(std::string_view name, bool onig, bool in_class, size_t at, CharSet* set) {
  std::string loose = LooseName(name);
  for (const PropertyName& p : kCategoryNames) {
    if (loose == p.name) {
      set->AddCategories(p.mask);
      return Status::Ok();
    }
  }
  if (loose == "any") {
    set->Add(0, 0x10FFFF);
  } else if (loose == "whitespace") {
    set->AddWhiteSpace();
  } else if (loose == "word") {
    AddWordClass(onig, in_class, set);
  } else {
    return Unsupported("property \\p{" + std::string(name) + "}", at);
  }
  return Status::Ok();
}

}  // namespace

Status ParseEscape(std::string_view p, size_t* i, bool onig, const Flags& flags, bool in_class,
                   Escape* out) {
  size_t at = *i;
  if (++*i >= p.size()) return Malformed("trailing backslash", at);
  char c = p[*i];
  auto literal = [&](char32_t cp) {
    out->kind = Escape::kLiteral;
    out->cp = cp;
    return Status::Ok();
  };
  switch (c) {
    case 't': ++*i; return literal('\t');
    case 'n': ++*i; return literal('\n');
    case 'r': ++*i; return literal('\r');
    case 'f': ++*i; return literal('\f');
    case 'v': ++*i; return literal('\v');
    case 'a': ++*i; return literal('\a');
    case 'e': ++*i; return literal(0x1B);
    case 'x': {
      ++*i;
      char32_t cp = 0;
      if (*i < p.size() && p[*i] == '{') {
        size_t close = p.find('}', *i);
        if (close == std::string_view::npos || close == *i + 1 || close - *i - 1 > 8) {
          return Malformed("bad \\x{...} escape", at);
        }
        ++*i;
        if (!FixedHex(p, i, static_cast<int>(close - *i), &cp)) return Malformed("bad \\x{...} escape", at);
        ++*i;
      } else if (!FixedHex(p, i, 2, &cp)) {
        return Unsupported("\\x escape without two hex digits", at);
      } else if (onig && cp >= 0x80) {
        return Unsupported("\\xHH above 7F (a raw byte in Oniguruma)", at);
      }
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return Malformed("escape is not a Unicode scalar value", at);
      return literal(cp);
    }
    case 'u': {
      ++*i;
      char32_t cp = 0;
      if (!FixedHex(p, i, 4, &cp)) return Unsupported("\\u escape without four hex digits", at);
      if (cp >= 0xD800 && cp <= 0xDFFF) return Unsupported("\\u escape of a surrogate", at);
      return literal(cp);
    }
    case 'A':
    case 'z':
      if (in_class) return Unsupported(std::string("\\") + c + " in a class", at);
      ++*i;
      out->kind = Escape::kAssert;
      out->assert_kind = c == 'A' ? AssertKind::kTextBegin : AssertKind::kTextEnd;
      return Status::Ok();
    case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
    case 'p': case 'P': {
      ++*i;
      bool negated = c == 'D' || c == 'S' || c == 'W' || c == 'P';
      CharSet set;
      if (c == 'd' || c == 'D') {
        set.AddCategories(1u << static_cast<unsigned>(Category::Nd));
      } else if (c == 's' || c == 'S') {
        set.AddWhiteSpace();
      } else if (c == 'w' || c == 'W') {
        AddWordClass(onig, in_class, &set);
      } else {
        if (*i >= p.size() || p[*i] != '{') return Unsupported("\\p without braces", at);
        size_t close = p.find('}', *i);
        if (close == std::string_view::npos) return Malformed("unterminated \\p{", at);
        std::string_view name = p.substr(*i + 1, close - *i - 1);
        *i = close + 1;
        if (!name.empty() && name[0] == '^') {
          negated = !negated;
          name.remove_prefix(1);
        }
        MTOK_RETURN_IF_ERROR(PropertySet(name, onig, in_class, at, &set));
      }
      // The regex crate case-folds every class under (?i); Oniguruma folds
      // only bracketed classes, as a whole (see ParseClass).
      if (!onig && flags.icase) set.CloseCase();
      if (negated) set.Negate();
      out->kind = Escape::kSet;
      out->set = std::move(set);
      out->negated = negated;
      return Status::Ok();
    }
    default:
      break;
  }
  unsigned char u = static_cast<unsigned char>(c);
  if (u < 0x80 && !std::isalnum(u)) {
    ++*i;
    return literal(u);
  }
  if (u < 0x80) return Unsupported(std::string("escape \\") + c, at);
  return Unsupported("escaped non-ASCII character", at);
}

}  // namespace mtok::regex_internal
