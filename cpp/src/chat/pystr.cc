#include "chat/pystr.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "chat/errors.h"
#include "common/unicode.h"
#include "common/utf8.h"

namespace mtok::chat {
namespace {

struct CaseEntry {
  char32_t cp;
  const char* mapped;
};
struct CaseRange {
  char32_t first, last;
};
#include "chat/case_tables.inc"

template <size_t N>
const char* LookupCase(const CaseEntry (&table)[N], char32_t cp) {
  auto it = std::lower_bound(std::begin(table), std::end(table), cp,
                             [](const CaseEntry& e, char32_t c) { return e.cp < c; });
  return it != std::end(table) && it->cp == cp ? it->mapped : nullptr;
}

template <size_t N>
bool InRanges(const CaseRange (&table)[N], char32_t cp) {
  auto it = std::lower_bound(std::begin(table), std::end(table), cp,
                             [](const CaseRange& r, char32_t c) { return r.last < c; });
  return it != std::end(table) && it->first <= cp;
}

bool IsCased(char32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
  return InRanges(kCased, cp);
}

// Appends the mapping of cp (upper: 'U', lower: 'L', title: 'T').
template <size_t N>
void AppendMapped(const CaseEntry (&table)[N], char32_t cp, char kind, std::string* out) {
  if (cp < 0x80) {
    char c = static_cast<char>(cp);
    if (kind == 'L' && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (kind != 'L' && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    out->push_back(c);
    return;
  }
  const char* mapped = LookupCase(table, cp);
  if (mapped != nullptr) {
    out->append(mapped);
  } else {
    utf8::append(*out, cp);
  }
}

// Python's final-sigma rule: U+03A3 lowers to U+03C2 at the end of a word
// (a cased letter before it, none after, skipping case-ignorable ones).
bool FinalSigma(const std::u32string& cps, size_t at) {
  size_t k = at;
  bool before = false;
  while (k > 0) {
    char32_t c = cps[--k];
    if (InRanges(kCaseIgnorable, c) || (c < 0x80 && std::string_view("'.:^`").find(char(c)) != std::string_view::npos)) continue;
    before = IsCased(c);
    break;
  }
  if (!before) return false;
  for (k = at + 1; k < cps.size(); ++k) {
    char32_t c = cps[k];
    if (InRanges(kCaseIgnorable, c) || (c < 0x80 && std::string_view("'.:^`").find(char(c)) != std::string_view::npos)) continue;
    return !IsCased(c);
  }
  return true;
}

bool IsAsciiOnly(std::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) return false;
  }
  return true;
}

}  // namespace

std::u32string ToCodePoints(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    int len = 1;
    out.push_back(utf8::decode(s, i, &len));
    i += len;
  }
  return out;
}

std::string FromCodePoints(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) utf8::append(out, c);
  return out;
}

size_t CodePointCount(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool IsPySpace(char32_t c) {
  if (c < 0x80) return (c >= 9 && c <= 13) || (c >= 0x1C && c <= 0x20);
  return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 ||
         c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

std::string FloatRepr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);  // shortest round-trip digits, "-1.25e-05"
  bool neg = sci[0] == '-';
  size_t e = sci.find('e');
  std::string digits;
  for (size_t k = neg ? 1 : 0; k < e; ++k) {
    if (sci[k] != '.') digits.push_back(sci[k]);
  }
  int exp10 = std::atoi(sci.c_str() + e + 1);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int decpt = exp10 + 1;  // digits are 0.DIGITS * 10^decpt
  std::string out = neg ? "-" : "";
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      out += "0." + std::string(-decpt, '0') + digits;
    } else if (static_cast<size_t>(decpt) >= digits.size()) {
      out += digits + std::string(decpt - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, decpt) + "." + digits.substr(decpt);
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char ebuf[16];
  std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
  return out + ebuf;
}

std::string StrRepr(std::string_view s) {
  bool has_single = s.find('\'') != std::string_view::npos;
  bool has_double = s.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size();) {
    int len = 1;
    char32_t c = utf8::decode(s, i, &len);
    if (c == static_cast<char32_t>(quote) || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
      out += buf;
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else {
      using unicode::Category;
      Category cat = unicode::category(c);
      bool printable = !(cat == Category::Cc || cat == Category::Cf || cat == Category::Cs ||
                         cat == Category::Co || cat == Category::Cn || cat == Category::Zl ||
                         cat == Category::Zp || cat == Category::Zs);
      if (printable) {
        out.append(s.substr(i, len));
      } else {
        char buf[16];
        if (c <= 0xFF) {
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
        } else if (c <= 0xFFFF) {
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        } else {
          std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(c));
        }
        out += buf;
      }
    }
    i += len;
  }
  out.push_back(quote);
  return out;
}

std::string ToStr(const Value& v) {
  switch (v.kind) {
    case Kind::kUndefined: return "";
    case Kind::kString: return v.s();
    default: return Repr(v);
  }
}

std::string Repr(const Value& v) {
  switch (v.kind) {
    case Kind::kUndefined: return "Undefined";
    case Kind::kNone: return "None";
    case Kind::kBool: return v.b ? "True" : "False";
    case Kind::kInt: return std::to_string(v.i);
    case Kind::kFloat: return FloatRepr(v.f);
    case Kind::kString: return v.markup ? "Markup(" + StrRepr(v.s()) + ")" : StrRepr(v.s());
    case Kind::kList:
    case Kind::kTuple: {
      if (v.iterator) return "<generator object>";
      if (v.range) {
        const RangeList& r = *static_cast<const RangeList*>(v.ptr.get());
        return "range(" + std::to_string(r.start) + ", " + std::to_string(r.stop) +
               (r.step == 1 ? std::string() : ", " + std::to_string(r.step)) + ")";
      }
      bool tuple = v.kind == Kind::kTuple;
      std::string out = tuple ? "(" : "[";
      const List& items = v.list();
      for (size_t k = 0; k < items.size(); ++k) {
        if (k) out += ", ";
        out += Repr(items[k]);
      }
      if (tuple && items.size() == 1) out += ",";
      return out + (tuple ? ")" : "]");
    }
    case Kind::kDict: {
      std::string out = "{";
      bool first = true;
      for (const auto& kv : v.dict().items) {
        if (!first) out += ", ";
        first = false;
        out += Repr(kv.first) + ": " + Repr(kv.second);
      }
      return out + "}";
    }
    case Kind::kNamespace: return "<Namespace " + Repr(Value::MakeDict(v.ns().attrs)) + ">";
    case Kind::kCallable: return "<" + v.fn().name + ">";
  }
  return "";
}

std::string PyUpper(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    int len = 1;
    AppendMapped(kUpper, utf8::decode(s, i, &len), 'U', &out);
    i += len;
  }
  return out;
}

std::string PyLower(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  if (IsAsciiOnly(s)) {
    for (char c : s) out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
    return out;
  }
  std::u32string cps = ToCodePoints(s);
  for (size_t k = 0; k < cps.size(); ++k) {
    if (cps[k] == 0x3A3 && FinalSigma(cps, k)) {
      utf8::append(out, 0x3C2);
    } else {
      AppendMapped(kLower, cps[k], 'L', &out);
    }
  }
  return out;
}

std::string PyTitle(std::string_view s) {
  std::string out;
  bool previous_cased = false;
  for (size_t i = 0; i < s.size();) {
    int len = 1;
    char32_t c = utf8::decode(s, i, &len);
    if (previous_cased) {
      AppendMapped(kLower, c, 'L', &out);
    } else {
      AppendMapped(kTitle, c, 'T', &out);
    }
    previous_cased = IsCased(c);
    i += len;
  }
  return out;
}

std::string PyCapitalize(std::string_view s) {
  if (s.empty()) return "";
  int len = 1;
  char32_t first = utf8::decode(s, 0, &len);
  std::string out;
  AppendMapped(kTitle, first, 'T', &out);
  return out + PyLower(s.substr(len));
}

std::string PyStrip(std::string_view s, const std::string* chars, bool left, bool right) {
  std::u32string cps = ToCodePoints(s);
  std::u32string set = chars ? ToCodePoints(*chars) : std::u32string();
  auto strip = [&](char32_t c) { return chars ? set.find(c) != std::u32string::npos : IsPySpace(c); };
  size_t b = 0, e = cps.size();
  if (left) {
    while (b < e && strip(cps[b])) ++b;
  }
  if (right) {
    while (e > b && strip(cps[e - 1])) --e;
  }
  return FromCodePoints(std::u32string_view(cps).substr(b, e - b));
}

std::vector<std::string> PySplit(std::string_view s, const std::string* sep, int64_t maxsplit) {
  std::vector<std::string> out;
  if (sep != nullptr) {
    if (sep->empty()) Fail("ValueError", "empty separator");
    size_t start = 0;
    while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
      size_t at = s.find(*sep, start);
      if (at == std::string_view::npos) break;
      out.emplace_back(s.substr(start, at - start));
      start = at + sep->size();
    }
    out.emplace_back(s.substr(start));
    return out;
  }
  std::u32string cps = ToCodePoints(s);
  size_t k = 0, n = cps.size();
  while (true) {
    while (k < n && IsPySpace(cps[k])) ++k;
    if (k >= n) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) >= maxsplit) {
      size_t e = n;
      while (e > k && IsPySpace(cps[e - 1])) --e;
      out.push_back(FromCodePoints(std::u32string_view(cps).substr(k, e - k)));
      break;
    }
    size_t start = k;
    while (k < n && !IsPySpace(cps[k])) ++k;
    out.push_back(FromCodePoints(std::u32string_view(cps).substr(start, k - start)));
  }
  return out;
}

std::vector<std::string> PyRSplit(std::string_view s, const std::string* sep, int64_t maxsplit) {
  std::vector<std::string> out;
  if (sep != nullptr) {
    if (sep->empty()) Fail("ValueError", "empty separator");
    size_t end = s.size();
    while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
      if (end < sep->size()) break;
      size_t at = s.rfind(*sep, end - sep->size());
      if (at == std::string_view::npos) break;
      out.emplace_back(s.substr(at + sep->size(), end - at - sep->size()));
      end = at;
    }
    out.emplace_back(s.substr(0, end));
    std::reverse(out.begin(), out.end());
    return out;
  }
  std::u32string cps = ToCodePoints(s);
  size_t k = cps.size();
  while (true) {
    while (k > 0 && IsPySpace(cps[k - 1])) --k;
    if (k == 0) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) >= maxsplit) {
      size_t b = 0;
      while (b < k && IsPySpace(cps[b])) ++b;
      out.push_back(FromCodePoints(std::u32string_view(cps).substr(b, k - b)));
      break;
    }
    size_t end = k;
    while (k > 0 && !IsPySpace(cps[k - 1])) --k;
    out.push_back(FromCodePoints(std::u32string_view(cps).substr(k, end - k)));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::string PyReplace(std::string_view s, std::string_view old, std::string_view repl, int64_t count) {
  std::string out;
  if (old.empty()) {
    int64_t done = 0;
    for (size_t i = 0; i <= s.size();) {
      if (count < 0 || done < count) {
        out.append(repl);
        ++done;
      }
      if (i == s.size()) break;
      int len = utf8::seq_len(static_cast<unsigned char>(s[i]));
      out.append(s.substr(i, len));
      i += len;
    }
    return out;
  }
  size_t start = 0;
  int64_t done = 0;
  while (count < 0 || done < count) {
    size_t at = s.find(old, start);
    if (at == std::string_view::npos) break;
    out.append(s.substr(start, at - start));
    out.append(repl);
    start = at + old.size();
    ++done;
  }
  out.append(s.substr(start));
  return out;
}

std::string HtmlEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\'': out += "&#39;"; break;
      case '"': out += "&#34;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

}  // namespace mtok::chat
