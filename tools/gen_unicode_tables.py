#!/usr/bin/env python3
"""Generate cpp/src/common/unicode_tables.inc: General_Category, White_Space,
simple case folding and the few extra sets the regex engine needs.

Regenerate (from the repo root; the pins matter, see below):

    python3 -m venv /tmp/ucd16
    /tmp/ucd16/bin/pip install unicodedata2==16.0.0 regex==2025.7.34
    /tmp/ucd16/bin/python tools/gen_unicode_tables.py

Why Unicode 16.0
----------------
The tables must agree with the regex engines of the reference libraries, not
with the newest Unicode. Measured with tokenizers 0.23.3 (Oniguruma, through
pre_tokenizers.Split(Regex(p), ...)) and tiktoken 0.14.0 (fancy-regex over the
regex crate, through an Encoding whose pat_str is p):
* code points that became letters in 15.0 (4348), 15.1 (622) and 16.0 (4302)
  are \\p{L} in both; none of the 4644 letters new in 17.0 (e.g. U+088F,
  U+0C5C) nor of the 12500 new in 18.0 are, in either.
* over all 1,112,064 scalar values, every General_Category value (\\p{Lu} ...
  \\p{Co}, \\p{Cn}), the groups \\p{L} \\p{M} \\p{N} \\p{P} \\p{S} \\p{Z} \\p{C},
  \\s, \\d and `.` match exactly the sets this file derives from Unicode 16.0,
  in both engines. The two references agree with each other on all of these.
They differ only on \\w: tiktoken adds Join_Control (U+200C U+200D) and
Oniguruma, outside brackets, adds U+00B2 U+00B3 U+00B9 U+00BC-U+00BE. The
table holds the common part; the regex engine adds the rest per dialect.

Sources
-------
* General_Category: unicodedata2==16.0.0 (unidata_version "16.0.0").
* White_Space: the 25 code points of PropList.txt, spelled out below (the list
  has not changed since Unicode 6.3); checked against regex's \\p{White_Space}.
* Simple case folding (CaseFolding.txt statuses C and S) and the multi-code-
  point full foldings (status F): the regex module 2025.7.34, whose Unicode
  data is 16.0 (it knows U+A7CB, 16.0, and not U+088F, 17.0), via
  _regex.fold_case. regex keeps I/i and U+0130 out of its folding for its
  Turkic handling; CaseFolding.txt has 0049 C 0069 and 0130 F 0069 0307, which
  FOLD_FIXES restores. The result is cross-checked against CPython 3.11's
  str.casefold() (Unicode 14) on every code point assigned in 14.0, where
  the only differences are the three S entries Unicode 15.1 added
  (S_ADDED_AFTER_14; both references fold those pairs together).
* Alphabetic (for \\w): regex's \\p{Alphabetic}.
unicodedata2 has no case data or binary properties, hence the second source.
"""

import os
import sys

UNICODE_VERSION = "16.0.0"
REGEX_VERSION = "2.5.159"  # regex==2025.7.34 reports this as regex.__version__
OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpp", "src",
                        "common", "unicode_tables.inc")

# Order of mtok::unicode::Category in cpp/src/common/unicode.h.
CATEGORIES = ["Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc",
              "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp",
              "Cc", "Cf", "Cs", "Co"]

# PropList.txt White_Space (stable since Unicode 6.3, when U+180E left it).
WHITE_SPACE = [(0x0009, 0x000D), (0x0020, 0x0020), (0x0085, 0x0085), (0x00A0, 0x00A0),
               (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F),
               (0x205F, 0x205F), (0x3000, 0x3000)]

# Where regex's folding departs from CaseFolding.txt (see the docstring).
FOLD_FIXES = {0x0049: 0x0069}
FULL_FOLD_FIXES = {0x0130: (0x0069, 0x0307)}

# Status S entries for code points that already existed in 14.0, added by
# Unicode 15.1. Both references fold these pairs together.
S_ADDED_AFTER_14 = {0x1FD3: 0x0390, 0x1FE3: 0x03B0, 0xFB05: 0xFB06}

BLOCK = 256
MAX_CP = 0x110000


def check_versions(unicodedata2, regex):
    if unicodedata2.unidata_version != UNICODE_VERSION:
        sys.exit(f"need unicodedata2 with Unicode {UNICODE_VERSION}, got "
                 f"{unicodedata2.unidata_version} (pip install unicodedata2==16.0.0)")
    if regex.__version__ != REGEX_VERSION:
        sys.exit(f"need regex {REGEX_VERSION} (pip install regex==2025.7.34), got {regex.__version__}")


def scalar_values():
    return [cp for cp in range(MAX_CP) if not 0xD800 <= cp <= 0xDFFF]


def categories(unicodedata2):
    return [CATEGORIES.index(unicodedata2.category(chr(cp))) for cp in range(MAX_CP)]


def set_from_regex(regex, prop):
    text = "".join(chr(cp) for cp in scalar_values())
    return {ord(c) for c in regex.findall(prop, text)}


def check_categories_against_regex(regex, cats):
    text = "".join(chr(cp) for cp in scalar_values())
    for i, name in enumerate(CATEGORIES):
        if name == "Cs":
            continue
        got = {ord(c) for c in regex.findall(r"\p{gc=%s}" % name, text)}
        want = {cp for cp in scalar_values() if cats[cp] == i}
        if got != want:
            sys.exit(f"regex and unicodedata2 disagree on {name}: not the same Unicode version?")


def ranges(cps):
    out = []
    for cp in sorted(cps):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return [tuple(r) for r in out]


def simple_folds(regex):
    from regex import _regex
    flags = regex.IGNORECASE | regex.UNICODE
    folds = {}
    for cp in scalar_values():
        f = _regex.fold_case(flags, chr(cp))
        if len(f) == 1 and ord(f) != cp:
            folds[cp] = ord(f)
    folds.update(FOLD_FIXES)
    return folds


def full_multi_folds(regex):
    from regex import _regex
    flags = regex.IGNORECASE | regex.UNICODE | regex.FULLCASE
    multi = {}
    for cp in scalar_values():
        f = _regex.fold_case(flags, chr(cp))
        if len(f) > 1:
            multi[cp] = tuple(ord(c) for c in f)
    multi.update(FULL_FOLD_FIXES)
    return multi


def check_folds_against_python(folds, multi):
    """CPython 3.11's casefold() is full case folding from Unicode 14."""
    import unicodedata
    if unicodedata.unidata_version != "14.0.0":
        return  # another CPython: nothing fixed to compare with
    for cp in scalar_values():
        if unicodedata.category(chr(cp)) == "Cn":
            continue
        cf = chr(cp).casefold()
        if len(cf) == 1:
            want = ord(cf)
        else:
            # Status S: the single-code-point folding of a char that also has
            # an F folding is its lowercase (e.g. U+1E9E -> U+00DF).
            lower = chr(cp).lower()
            want = ord(lower) if len(lower) == 1 else cp
            want = S_ADDED_AFTER_14.get(cp, want)
            if multi.get(cp) != tuple(map(ord, cf)):
                sys.exit(f"full folding of U+{cp:04X} differs from CPython's casefold")
        if folds.get(cp, cp) != want:
            sys.exit(f"simple folding of U+{cp:04X} differs from CPython's casefold")


def two_stage(cats):
    blocks, index, seen = [], [], {}
    for start in range(0, MAX_CP, BLOCK):
        block = tuple(cats[start:start + BLOCK])
        if block not in seen:
            seen[block] = len(blocks)
            blocks.append(block)
        index.append(seen[block])
    return index, blocks


def runs(cats):
    out = []
    for cp, c in enumerate(cats):
        if not out or out[-1][1] != c:
            out.append((cp, c))
    return out


def fmt_list(items, per_line):
    lines = []
    for i in range(0, len(items), per_line):
        lines.append("    " + ", ".join(items[i:i + per_line]) + ",")
    return "\n".join(lines)


def emit(cats, folds, multi, word_extra):
    index, blocks = two_stage(cats)
    out = []
    w = out.append
    w("// GENERATED by tools/gen_unicode_tables.py from Unicode %s; do not edit." % UNICODE_VERSION)
    w("// Regenerate: see the docstring of that script (pinned unicodedata2 and regex).")
    w("// Unicode 16.0 is what HF tokenizers 0.23.3 (Oniguruma) and tiktoken 0.14.0")
    w("// (fancy-regex) use for \\p{..} and \\s; the script says how that was measured.")
    w("// Included once, by unicode.cc.")
    w("")
    w("namespace mtok::unicode::tables {")
    w("")
    w('constexpr char kUnicodeVersion[] = "%s";' % UNICODE_VERSION)
    w("")
    w("// General_Category, two stages: kCategoryBlock[cp >> 8] selects a 256-entry")
    w("// block of kCategoryData (values are mtok::unicode::Category).")
    w("constexpr uint16_t kCategoryBlock[%d] = {" % len(index))
    w(fmt_list([str(i) for i in index], 24))
    w("};")
    w("constexpr uint8_t kCategoryData[%d] = {" % (len(blocks) * BLOCK))
    w(fmt_list([str(c) for b in blocks for c in b], 32))
    w("};")
    w("")
    r = runs(cats)
    w("// The same data as maximal runs (see CategoryRun in unicode.h).")
    w("constexpr CategoryRun kCategoryRuns[%d] = {" % len(r))
    w(fmt_list(["{0x%X, Category::%s}" % (s, CATEGORIES[c]) for s, c in r], 6))
    w("};")
    w("")
    w("// PropList.txt White_Space.")
    w("constexpr CodePointRange kWhiteSpace[%d] = {" % len(WHITE_SPACE))
    w(fmt_list(["{0x%04X, 0x%04X}" % x for x in WHITE_SPACE], 6))
    w("};")
    w("")
    w("// Alphabetic code points outside L, M, Nd and Pc (letter-like numbers such as")
    w("// U+2160 and circled letters such as U+24B6): with those, the Unicode \\w.")
    w("constexpr CodePointRange kWordExtra[%d] = {" % len(word_extra))
    w(fmt_list(["{0x%04X, 0x%04X}" % x for x in word_extra], 6))
    w("};")
    w("")
    w("// CaseFolding.txt statuses C and S, sorted: code points whose simple folding")
    w("// is another code point.")
    w("constexpr FoldPair kSimpleFold[%d] = {" % len(folds))
    w(fmt_list(["{0x%04X, 0x%04X}" % (k, folds[k]) for k in sorted(folds)], 6))
    w("};")
    w("")
    w("// CaseFolding.txt status F: code points whose full folding has 2 or 3 code")
    w("// points (to[2] == 0 for two).")
    w("struct MultiFold { char32_t from; char32_t to[3]; };")
    w("constexpr MultiFold kMultiFold[%d] = {" % len(multi))
    items = []
    for k in sorted(multi):
        t = list(multi[k]) + [0] * (3 - len(multi[k]))
        items.append("{0x%04X, {0x%04X, 0x%04X, 0x%04X}}" % (k, *t))
    w(fmt_list(items, 3))
    w("};")
    w("")
    w("}  // namespace mtok::unicode::tables")
    return "\n".join(out) + "\n"


def main():
    import regex
    import unicodedata2
    check_versions(unicodedata2, regex)
    cats = categories(unicodedata2)
    check_categories_against_regex(regex, cats)
    if set_from_regex(regex, r"\p{White_Space}") != {cp for a, b in WHITE_SPACE
                                                      for cp in range(a, b + 1)}:
        sys.exit("White_Space list differs from regex's \\p{White_Space}")
    folds = simple_folds(regex)
    multi = full_multi_folds(regex)
    check_folds_against_python(folds, multi)
    word_base = {cp for cp in scalar_values()
                 if CATEGORIES[cats[cp]][0] in "LM" or CATEGORIES[cats[cp]] in ("Nd", "Pc")}
    word_extra = ranges(set_from_regex(regex, r"\p{Alphabetic}") - word_base)
    with open(OUT_PATH, "w", encoding="utf-8") as f:
        f.write(emit(cats, folds, multi, word_extra))
    print(f"wrote {os.path.normpath(OUT_PATH)}: {len(folds)} simple folds, "
          f"{len(multi)} multi folds, {len(word_extra)} word-extra ranges")


if __name__ == "__main__":
    main()
