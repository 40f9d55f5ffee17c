#!/usr/bin/env python3
"""Generate cpp/src/common/unicode_norm_tables.inc (normalization + lowercase).

Regenerate (from the repo root):

    python3.9 -m venv /tmp/ucd9 && /tmp/ucd9/bin/pip install unicodedata2==9.0.0.post4
    MTOK_UCD9_PYTHON=/tmp/ucd9/bin/python python3.11 tools/gen_unicode_norm.py

The script runs in two interpreters. The project's Python (3.11) builds the
tables; it re-runs this file under MTOK_UCD9_PYTHON with --dump-ucd9 to read
the normalization data. unicodedata2 9.0.0.post4 only builds on CPython <= 3.9
(it includes the pre-3.10 public header ucnhash.h); 3.6 works as well.
This file therefore keeps to Python 3.6 syntax.

Where each table comes from
---------------------------
* Decompositions (canonical and compatibility), Canonical_Combining_Class and
  the canonical composition pairs: unicodedata2==9.0.0.post4 (UCD 9.0.0).
  Pairs are the two-code-point canonical decompositions d of c with
  NFC(d) == c, which drops singletons, non-starter decompositions and the
  composition exclusions. Hangul syllables are algorithmic in the C++ code.
* Full lowercase: str.lower() of one code point in CPython 3.11
  (unicodedata 14.0.0; this is UnicodeData field 13 plus the unconditional
  SpecialCasing entries, e.g. U+0130 -> "i\\u0307"), plus the case pairs
  Unicode 16.0 and 17.0 added (LOWER_ADDED below, from UnicodeData.txt;
  checked against unicodedata2's names when a unicodedata2 >= 17 is
  importable). unicodedata2 has no case data, so it cannot be the source.

Why Unicode 9.0 for normalization
---------------------------------
HF tokenizers 0.23.3 normalizes with the crate unicode-normalization-alignments
0.1.12 (a fork of unicode-normalization from 2019), whose tables.rs says
UNICODE_VERSION = (9, 0, 0). Checked against tokenizers 0.23.3 itself:
* every code point alone (all 1,112,064 but the surrogates) through
  NFC/NFD/NFKC/NFKD equals unicodedata2 9.0.0.post4's normalize(): 0
  mismatches. unicodedata2 18.0.0 differs on 21 (NFD), 239 (NFKC) and 260
  (NFKD) of them, all added after 9.0, e.g. U+32FF SQUARE ERA NAME REIWA
  (12.1), U+AB69 (13.0), U+11938 (13.0), U+1E030 (15.0), U+1CCF0 (16.0):
  HF leaves them unchanged.
* ccc: U+1E944 ADLAM (9.0, ccc 230) + U+0334 is reordered by HF's NFD, while
  U+0D3B MALAYALAM VOWEL SIGN VERTICAL BAR VIRAMA (10.0, ccc 9) and U+1DF6
  (10.0, ccc 232) + U+0334 are not: the ccc table is 9.0, not 10.0.

Why Unicode 17.0 for lowercase
------------------------------
HF's Lowercase normalizer maps each char with Rust's char::to_lowercase (no
Final_Sigma context: "ΑΣ" -> "ασ"). The tokenizers 0.23.3 wheel was built
with a Rust whose tables are Unicode 17.0: it lowercases U+16EA0 BERIA ERFE
(17.0) and U+10D50 GARAY (16.0) but not U+A7DD or U+1DF40 (Unicode 18.0, which
unicodedata2 18.0.0 knows). Against CPython 3.11's str.lower it differs on
exactly the 55 code points in LOWER_ADDED.
"""

import json
import os
import subprocess
import sys

UCD9_VERSION = "9.0.0"
OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpp", "src",
                        "common", "unicode_norm_tables.inc")

HANGUL_S_BASE, HANGUL_S_COUNT = 0xAC00, 11172
HANGUL_V = range(0x1161, 0x1161 + 21)
HANGUL_T = range(0x11A8, 0x11A7 + 28)   # T_BASE itself (U+11A7) never composes
SURROGATES = range(0xD800, 0xE000)

# (first upper, last upper, lower of first): case pairs added in Unicode 16.0
# and 17.0 (UnicodeData.txt field 13). Ranges map upper+i -> lower+i.
LOWER_ADDED = [
    (0x1C89, 0x1C89, 0x1C8A),    # 16.0 CYRILLIC CAPITAL LETTER TJE
    (0xA7CB, 0xA7CB, 0x0264),    # 16.0 LATIN CAPITAL LETTER RAMS HORN
    (0xA7CC, 0xA7CC, 0xA7CD),    # 16.0 LATIN CAPITAL LETTER S WITH DIAGONAL STROKE
    (0xA7CE, 0xA7CE, 0xA7CF),    # 17.0 LATIN CAPITAL LETTER PHARYNGEAL VOICED FRICATIVE
    (0xA7D2, 0xA7D2, 0xA7D3),    # 17.0 LATIN CAPITAL LETTER DOUBLE THORN
    (0xA7D4, 0xA7D4, 0xA7D5),    # 17.0 LATIN CAPITAL LETTER DOUBLE WYNN
    (0xA7DA, 0xA7DA, 0xA7DB),    # 16.0 LATIN CAPITAL LETTER LAMBDA
    (0xA7DC, 0xA7DC, 0x019B),    # 16.0 LATIN CAPITAL LETTER LAMBDA WITH STROKE
    (0x10D50, 0x10D65, 0x10D70),  # 16.0 GARAY CAPITAL LETTER A .. OLD NA
    (0x16EA0, 0x16EB8, 0x16EBB),  # 17.0 BERIA ERFE CAPITAL LETTER ARKAB .. AY
]

# Bits of the per-code-point property word (emitted as constants too).
HAS_CANON, HAS_COMPAT, IS_SECOND = 1 << 8, 1 << 9, 1 << 10
SAFE_NFD, SAFE_NFC, SAFE_NFKD, SAFE_NFKC = 1 << 11, 1 << 12, 1 << 13, 1 << 14


def all_code_points():
    for cp in range(0x110000):
        if cp not in SURROGATES:
            yield cp


def dump_ucd9():
    """Runs under MTOK_UCD9_PYTHON: prints the UCD 9.0 data as JSON."""
    import unicodedata2 as ud
    if ud.unidata_version != UCD9_VERSION:
        sys.exit("need unicodedata2 %s, got %s" % (UCD9_VERSION, ud.unidata_version))
    ccc, nfd, nfkd, pairs = {}, {}, {}, []
    for cp in all_code_points():
        c = chr(cp)
        if ud.combining(c):
            ccc[cp] = ud.combining(c)
        if HANGUL_S_BASE <= cp < HANGUL_S_BASE + HANGUL_S_COUNT:
            continue
        d, kd = ud.normalize("NFD", c), ud.normalize("NFKD", c)
        if d != c:
            nfd[cp] = [ord(x) for x in d]
        if kd != c:
            nfkd[cp] = [ord(x) for x in kd]
        raw = ud.decomposition(c)
        if raw and not raw.startswith("<"):
            parts = [int(x, 16) for x in raw.split()]
            if len(parts) == 2 and ud.normalize("NFC", chr(parts[0]) + chr(parts[1])) == c:
                pairs.append(parts + [cp])
    json.dump({"version": ud.unidata_version, "ccc": ccc, "nfd": nfd, "nfkd": nfkd,
               "pairs": pairs}, sys.stdout)


def load_ucd9():
    py = os.environ.get("MTOK_UCD9_PYTHON", "/tmp/ucd9/bin/python")
    raw = subprocess.check_output([py, os.path.abspath(__file__), "--dump-ucd9"])
    data = json.loads(raw.decode("utf-8"))
    ints = lambda m: {int(k): v for k, v in m.items()}
    return ints(data["ccc"]), ints(data["nfd"]), ints(data["nfkd"]), data["pairs"]


def build_props(ccc, nfd, nfkd, pairs):
    """Property word per code point: ccc, table flags and quick-check 'safe' bits.

    A code point is safe for a form when it has ccc 0 and the form's quick
    check is Yes: text can then be normalized in independent pieces split
    before each safe code point."""
    composites = {p[2] for p in pairs}
    seconds = {p[1] for p in pairs} | set(HANGUL_V) | set(HANGUL_T)
    props = {}
    for cp in all_code_points():
        cc = ccc.get(cp, 0)
        hangul = HANGUL_S_BASE <= cp < HANGUL_S_BASE + HANGUL_S_COUNT
        canon = cp in nfd
        compat = nfkd.get(cp, [cp]) != nfd.get(cp, [cp])
        v = cc
        v |= HAS_CANON if canon else 0
        v |= HAS_COMPAT if compat else 0
        v |= IS_SECOND if cp in seconds else 0
        nfd_yes = not canon and not hangul
        nfc_yes = cp not in seconds and (not canon or cp in composites)
        if cc == 0:
            v |= SAFE_NFD if nfd_yes else 0
            v |= SAFE_NFKD if nfd_yes and not compat else 0
            v |= SAFE_NFC if nfc_yes else 0
            v |= SAFE_NFKC if nfc_yes and not compat else 0
        if v & SAFE_NFC and canon:
            # The split-before-safe rule needs a safe composite to start with
            # a starter that never combines backwards.
            first = nfd[cp][0]
            assert ccc.get(first, 0) == 0 and first not in seconds, hex(cp)
        props[cp] = v
    return props


def build_lower():
    if not ("14.0.0" <= __import__("unicodedata").unidata_version <= "15.1.0"):
        sys.exit("run the table build under CPython 3.11-3.13 (Unicode 14.0-15.1 str.lower)")
    lower = {}
    for cp in all_code_points():
        low = chr(cp).lower()
        if low != chr(cp):
            lower[cp] = [ord(x) for x in low]
    for first, last, low in LOWER_ADDED:
        for i in range(last - first + 1):
            assert first + i not in lower, hex(first + i)
            lower[first + i] = [low + i]
    check_added_names()
    return lower


def check_added_names():
    try:
        import unicodedata2 as ud
    except ImportError:
        return
    if ud.unidata_version < "17.0.0":
        return
    for first, last, low in LOWER_ADDED:
        for i in range(last - first + 1):
            up_name = ud.name(chr(first + i))
            assert ud.name(chr(low + i)) == up_name.replace("CAPITAL", "SMALL"), up_name


def two_stage(values, default):
    """Splits values (dict cp -> int) into (shift, limit, stage1, stage2) with
    the smallest total size; code points >= limit read as `default`."""
    limit = max(cp for cp, v in values.items() if v != default) + 1
    best = None
    for shift in range(4, 10):
        size = 1 << shift
        nblocks = (limit + size - 1) >> shift
        blocks, index, stage1 = [], {}, []
        for b in range(nblocks):
            blk = tuple(values.get((b << shift) + i, default) for i in range(size))
            if blk not in index:
                index[blk] = len(blocks)
                blocks.append(blk)
            stage1.append(index[blk])
        cost = len(stage1) * (1 if len(blocks) <= 256 else 2) + len(blocks) * size * 2
        if best is None or cost < best[0]:
            best = (cost, shift, nblocks << shift, stage1, [x for blk in blocks for x in blk])
    return best[1:]


def c_array(ctype, name, items, per_line=12, fmt="0x{:X}"):
    lines = ["static const %s %s[%d] = {" % (ctype, name, len(items))]
    for i in range(0, len(items), per_line):
        lines.append("    " + ", ".join(fmt.format(x) for x in items[i:i + per_line]) + ",")
    lines.append("};")
    return "\n".join(lines)


def uint_type(values):
    top = max(values)
    return "uint8_t" if top < 256 else "uint16_t" if top < 65536 else "uint32_t"


def emit_two_stage(prefix, table, default):
    shift, limit, stage1, stage2 = table
    return "\n".join([
        "constexpr int k%sShift = %d;" % (prefix, shift),
        "constexpr uint32_t k%sLimit = 0x%X;" % (prefix, limit),
        "constexpr uint32_t k%sDefault = 0x%X;" % (prefix, default),
        c_array(uint_type(stage1), "k%sStage1" % prefix, stage1, 24, "{}"),
        c_array(uint_type(stage2), "k%sStage2" % prefix, stage2, 16),
    ])


def emit_decomp(name, mapping, pool):
    """Sorted keys plus (offset << 5 | length) into the shared pool."""
    keys, vals = [], []
    for cp in sorted(mapping):
        seq = mapping[cp]
        assert 0 < len(seq) < 32
        keys.append(cp)
        vals.append(len(pool) << 5 | len(seq))
        pool.extend(seq)
    return c_array("uint32_t", "k%sKeys" % name, keys) + "\n" + \
        c_array("uint32_t", "k%sVals" % name, vals)


def main():
    if "--dump-ucd9" in sys.argv:
        dump_ucd9()
        return
    ccc, nfd, nfkd, pairs = load_ucd9()
    props = build_props(ccc, nfd, nfkd, pairs)
    safe_all = SAFE_NFD | SAFE_NFC | SAFE_NFKD | SAFE_NFKC
    compat = {cp: seq for cp, seq in nfkd.items() if seq != nfd.get(cp, [cp])}
    pool = []
    decomp = emit_decomp("Canon", nfd, pool) + "\n" + emit_decomp("Compat", compat, pool)
    pairs.sort()
    lower = build_lower()
    # Lowercase: a delta per code point, or a pointer into kLowerMulti.
    multi = sorted(cp for cp, seq in lower.items() if len(seq) > 1)
    deltas = {cp: seq[0] - cp for cp, seq in lower.items() if len(seq) == 1}
    delta_list = [0] + sorted(set(deltas.values()) - {0})
    multi_marker = len(delta_list)
    delta_index = {cp: delta_list.index(d) for cp, d in deltas.items()}
    delta_index.update({cp: multi_marker for cp in multi})
    assert multi_marker < 256
    out = [
        "// Generated by tools/gen_unicode_norm.py. Do not edit; regenerate with the",
        "// commands in that script's docstring.",
        "// Normalization data: Unicode %s (unicodedata2 9.0.0.post4), the version" % UCD9_VERSION,
        "// of HF tokenizers' unicode-normalization-alignments crate.",
        "// Lowercase: Unicode 17.0 (CPython 3.11 str.lower + the 16.0/17.0 case pairs),",
        "// as Rust's char::to_lowercase in tokenizers 0.23.3.",
        "// Included by unicode_norm.cc only (inside an anonymous namespace).",
        "",
        "constexpr uint32_t kHasCanon = 0x%X, kHasCompat = 0x%X, kIsSecond = 0x%X;"
        % (HAS_CANON, HAS_COMPAT, IS_SECOND),
        "constexpr uint32_t kSafeNFD = 0x%X, kSafeNFC = 0x%X, kSafeNFKD = 0x%X, kSafeNFKC = 0x%X;"
        % (SAFE_NFD, SAFE_NFC, SAFE_NFKD, SAFE_NFKC),
        "",
        "// Property word: ccc in bits 0-7, then the flags above.",
        emit_two_stage("Prop", two_stage(props, safe_all), safe_all),
        "",
        "// Full decompositions (already recursive), Hangul excluded.",
        decomp,
        c_array("char32_t", "kDecompPool", pool),
        "",
        "// Canonical composition pairs: key first << 21 | second, sorted.",
        c_array("uint64_t", "kCompKeys", [a << 21 | b for a, b, _ in pairs], 8),
        c_array("char32_t", "kCompVals", [c for _, _, c in pairs]),
        "",
        "// Lowercase: stage2 holds an index into kLowerDeltas; index %d means the" % multi_marker,
        "// code point maps to several (see kLowerMulti).",
        "constexpr uint32_t kLowerMultiMarker = %d;" % multi_marker,
        c_array("int32_t", "kLowerDeltas", delta_list, 12, "{}"),
        emit_two_stage("Lower", two_stage(delta_index, 0), 0),
        "struct LowerMulti { char32_t cp; char32_t seq[3]; };",
        "static const LowerMulti kLowerMulti[%d] = {" % len(multi),
    ]
    for cp in multi:
        seq = lower[cp] + [0] * (3 - len(lower[cp]))
        out.append("    {0x%X, {%s}}," % (cp, ", ".join("0x%X" % x for x in seq)))
    out.append("};")
    with open(OUT_PATH, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote %s: %d canonical, %d compat, %d pairs, %d lowercase" %
          (os.path.normpath(OUT_PATH), len(nfd), len(compat), len(pairs), len(lower)))


if __name__ == "__main__":
    main()
