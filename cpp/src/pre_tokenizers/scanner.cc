#include "pre_tokenizers/scanner.h"

#include <string>

#include "common/utf8.h"
#include "pre_tokenizers/ascii_blocks.h"
#include "pre_tokenizers/scanner_classes.h"
#include "pre_tokenizers/unicode_match.h"

namespace mtok {

namespace {

using namespace scan;

// End of the longest run of `k` from i, taking at most `max` characters
// (0 = no limit: RunOf).
size_t Run(std::string_view s, size_t i, Class k, size_t max) {
  if (max == 0) return RunOf(s, i, k);
  for (size_t n = 0; i < s.size() && n < max; ++n) {
    int len;
    if (!In(k, At(s, i, &len))) break;
    i += len;
  }
  return i;
}

}  // namespace

struct Scanner::Alt {
  enum Kind : uint8_t {
    kContraction,       // 's|'t|'re|'ve|'m|'ll|'d, `fold` = case-insensitive
    kPrefixRun,         // prefix? run{1,max} trailing*
    kSpaceToNewline,    // \s*[\r\n]+  (also \s*[\r\n]: same end)
    kSpaceToEnd,        // \s++$
    kSpaceNotBeforeNonSpace,  // \s+(?!\S)
    kSpaceRun,          // \s+ (or \s where only a single space can reach it)
    kCasedWord,         // o200k: prefix? U* W+ contraction?   (`plus_upper`: prefix? U+ W* ...)
  } kind;
  bool fold = false;
  bool has_prefix = false;
  Class prefix = kLetter;
  Class run = kLetter;
  size_t max = 0;
  bool has_trailing = false;
  Class trailing = kLetter;
  bool plus_upper = false;

  size_t Match(std::string_view s, size_t i) const;
};

size_t Scanner::Alt::Match(std::string_view s, size_t i) const {
  int len;
  switch (kind) {
    case kContraction:
      return Contraction(s, i, fold);
    case kPrefixRun: {
      // Greedy optional prefix: with it first, then without.
      for (int with = has_prefix ? 1 : 0; with >= 0; --with) {
        size_t at = i;
        if (with) {
          if (!In(prefix, At(s, i, &len))) continue;
          at += len;
        }
        size_t end = Run(s, at, run, max);
        if (end == at) continue;
        if (has_trailing) end = RunOf(s, end, trailing);
        return end;
      }
      return i;
    }
    case kSpaceToNewline: {
      size_t last_nl = 0;
      bool found = false;
      for (size_t k = i; k < s.size();) {
        char32_t c = At(s, k, &len);
        if (!In(kSpace, c)) break;
        if (c == '\r' || c == '\n') {
          found = true;
          last_nl = k;
        }
        k += len;
      }
      return found ? last_nl + 1 : i;
    }
    case kSpaceToEnd: {
      size_t end = RunOf(s, i, kSpace);
      return end > i && end == s.size() ? end : i;
    }
    case kSpaceNotBeforeNonSpace: {
      // \s+ then give back the last space when a non-space follows.
      size_t last = i, end = i, n = 0;
      while (end < s.size()) {
        char32_t c = At(s, end, &len);
        if (!In(kSpace, c)) break;
        last = end;
        end += len;
        ++n;
      }
      if (n == 0) return i;
      if (end == s.size()) return end;
      return n >= 2 ? last : i;
    }
    case kSpaceRun: {
      return Run(s, i, kSpace, max);
    }
    case kCasedWord: {
      for (int with = 1; with >= 0; --with) {
        size_t start = i;
        if (with) {
          if (!In(kNotNlLN, At(s, i, &len))) continue;
          start += len;
        }
        size_t end;
        if (plus_upper) {
          // U+ W*: no backtracking can help, W* and the suffix never fail.
          end = RunOf(s, start, kUpperish);
          if (end == start) continue;
          end = RunOf(s, end, kLowerish);
        } else {
          // U* W+: U* gives back characters from its end until W+ can
          // start: at the end of the U run if a W follows it, else at the
          // last U character that is also a W (Lm, Lo, marks).
          size_t k = start, last_w = s.size();
          while (k < s.size()) {
            char32_t c = At(s, k, &len);
            if (!In(kUpperish, c)) break;
            if (In(kLowerish, c)) last_w = k;
            k += len;
          }
          size_t w_start = k;
          if (k >= s.size() || !In(kLowerish, At(s, k, &len))) {
            if (last_w == s.size()) continue;
            w_start = last_w;
          }
          end = RunOf(s, w_start, kLowerish);
        }
        size_t c_end = Contraction(s, end, true);
        return c_end;
      }
      return i;
    }
  }
  return i;
}

Scanner::Scanner() = default;
Scanner::~Scanner() = default;

size_t Scanner::MatchAt(std::string_view s, size_t i) const {
  for (const Alt& a : alts_) {
    size_t end = a.Match(s, i);
    if (end > i) return end;
  }
  return i;
}

template <AsciiFamily F>
size_t Scanner::FindSomeFor(const Scanner& self, std::string_view s, size_t i, Span* out, size_t cap,
                            size_t* next) {
  // A pointer to the next span, not a count: with the matchers inlined,
  // the count and the capacity lived on the stack.
  Span* o = out;
  Span* const o_end = out + cap;
  while (i < s.size() && o != o_end) {
    if constexpr (ascii_blocks::kCovers<F>) {
      // ASCII text (and two-byte letters, see TwoByteLeads) a block at a time.
      if (s.size() - i >= ascii_blocks::kBytes && ascii_blocks::Worth<F>(s.data() + i)) {
        unsigned decided;
        const uint64_t starts = ascii_blocks::Starts<F>(s.data() + i, self.max_digits_, &decided);
        uint64_t next = starts & ((uint64_t{1} << decided) - 1) & ~uint64_t{1};
        if (next != 0) {
          size_t at = i;
          for (; next != 0 && o != o_end; next &= next - 1) {
            const size_t end = i + static_cast<size_t>(__builtin_ctzll(next));
            *o++ = {at, end};
            at = end;
          }
          i = at;
          continue;
        }
      }
    }
    size_t end = F != AsciiFamily::kNone ? AsciiMatch<F>(self.max_digits_, s, i) : 0;
    if (end == 0) end = UnicodeMatch<F>(s, i);
    if (end == 0) end = self.MatchAt(s, i);
    if (end > i) {
      *o++ = {i, end};
      i = end;
    } else {
      i += utf8::seq_len(static_cast<unsigned char>(s[i]));
    }
  }
  *next = i;
  return static_cast<size_t>(o - out);
}

void Scanner::FindAll(std::string_view s, std::vector<Span>* out) const {
  Span buf[64];
  for (size_t i = 0; i < s.size();) {
    const size_t n = FindSome(s, i, buf, 64, &i);
    out->insert(out->end(), buf, buf + n);
  }
}

namespace {

using Alt = Scanner::Alt;

Alt Contr(bool fold) {
  Alt a{Alt::kContraction};
  a.fold = fold;
  return a;
}
Alt PrefixRun(bool has_prefix, Class prefix, Class run, size_t max = 0) {
  Alt a{Alt::kPrefixRun};
  a.has_prefix = has_prefix;
  a.prefix = prefix;
  a.run = run;
  a.max = max;
  return a;
}
Alt WithTrailing(Alt a, Class trailing) {
  a.has_trailing = true;
  a.trailing = trailing;
  return a;
}
Alt Simple(Alt::Kind kind, size_t max = 0) {
  Alt a{kind};
  a.max = max;
  return a;
}
Alt Cased(bool plus_upper) {
  Alt a{Alt::kCasedWord};
  a.plus_upper = plus_upper;
  return a;
}

struct Known {
  std::string pattern;
  RegexDialect dialect;
  std::vector<Alt> alts;
  AsciiFamily ascii;
  size_t max_digits;  // of \p{N} runs, 0: unbounded
};

const std::vector<Known>& KnownPatterns() {
  static const std::vector<Known> known = [] {
    const Alt space_letters = PrefixRun(true, kLiteralSpace, kLetter);
    const Alt space_numbers = PrefixRun(true, kLiteralSpace, kNumber);
    const Alt space_others = PrefixRun(true, kLiteralSpace, kOther);
    const Alt word = PrefixRun(true, kNotNlLN, kLetter);
    const Alt not_before = Simple(Alt::kSpaceNotBeforeNonSpace);
    const Alt to_newline = Simple(Alt::kSpaceToNewline);
    std::vector<Known> k;
    // GPT-2 (HF ByteLevel's built-in regex).
    k.push_back({R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)",
                 RegexDialect::kOniguruma,
                 {Contr(false), space_letters, space_numbers, space_others, not_before,
                  Simple(Alt::kSpaceRun)},
                 AsciiFamily::kGpt2, 0});
    // r50k / p50k / gpt2 in tiktoken.
    k.push_back({R"('(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s)",
                 RegexDialect::kRust,
                 {Contr(false), space_letters, space_numbers, space_others,
                  Simple(Alt::kSpaceToEnd), not_before, Simple(Alt::kSpaceRun, 1)},
                 AsciiFamily::kGpt2, 0});
    // Llama-3 (tokenizer.json) and Qwen2/3 (single digits).
    for (size_t digits : {3, 1}) {
      std::string n = digits == 3 ? R"(\p{N}{1,3})" : R"(\p{N})";
      k.push_back({R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|)" + n +
                       R"(| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
                   RegexDialect::kOniguruma,
                   {Contr(true), word, PrefixRun(false, kLetter, kNumber, digits),
                    WithTrailing(space_others, kNewline), to_newline, not_before,
                    Simple(Alt::kSpaceRun)},
                   AsciiFamily::kLlama3, digits});
    }
    // cl100k in tiktoken.
    k.push_back({R"('(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s)",
                 RegexDialect::kRust,
                 {Contr(true), word, PrefixRun(false, kLetter, kNumber, 3),
                  WithTrailing(space_others, kNewline), Simple(Alt::kSpaceToEnd), to_newline,
                  not_before, Simple(Alt::kSpaceRun, 1)},
                 AsciiFamily::kCl100k, 3});
    // o200k (the same text in tiktoken and in tokenizer.json).
    const char* o200k =
        R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
    for (RegexDialect d : {RegexDialect::kOniguruma, RegexDialect::kRust}) {
      k.push_back({o200k, d,
                   {Cased(false), Cased(true), PrefixRun(false, kLetter, kNumber, 3),
                    WithTrailing(space_others, kNewlineSlash), to_newline, not_before,
                    Simple(Alt::kSpaceRun)},
                   AsciiFamily::kO200k, 3});
    }
    return k;
  }();
  return known;
}

}  // namespace

bool Scanner::AlwaysSplitsAfterNewline(std::string_view s, size_t p) const {
  if (p < 2 || p >= s.size() || s[p - 1] != '\n') return false;
  int len;
  const char32_t after = At(s, p, &len);
  if (In(kSpace, after) || (after == '/' && slash_after_newline_)) return false;
  if (newline_ends_runs_) return true;
  size_t start = p - 2;  // the character before the break: not white space
  while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80 && p - 2 - start < 3) --start;
  return !In(kSpace, At(s, start, &len)) && start + static_cast<size_t>(len) == p - 1;
}

std::unique_ptr<Scanner> Scanner::ForPattern(std::string_view pattern, RegexDialect dialect) {
  for (const Known& k : KnownPatterns()) {
    if (k.dialect == dialect && pattern == k.pattern) {
      std::unique_ptr<Scanner> s(new Scanner());
      s->alts_ = k.alts;
      s->max_digits_ = k.max_digits;
      for (const Alt& a : k.alts) {
        if (a.kind == Alt::kSpaceNotBeforeNonSpace && !s->newline_ends_runs_) break;
        if (a.kind == Alt::kSpaceToNewline) s->newline_ends_runs_ = true;
      }
      for (const Alt& a : k.alts) s->slash_after_newline_ |= a.has_trailing && a.trailing == kNewlineSlash;
      switch (k.ascii) {
        case AsciiFamily::kNone: s->find_some_ = FindSomeFor<AsciiFamily::kNone>; break;
        case AsciiFamily::kGpt2: s->find_some_ = FindSomeFor<AsciiFamily::kGpt2>; break;
        case AsciiFamily::kLlama3: s->find_some_ = FindSomeFor<AsciiFamily::kLlama3>; break;
        case AsciiFamily::kCl100k: s->find_some_ = FindSomeFor<AsciiFamily::kCl100k>; break;
        case AsciiFamily::kO200k: s->find_some_ = FindSomeFor<AsciiFamily::kO200k>; break;
      }
      return s;
    }
  }
  return nullptr;
}

}  // namespace mtok
