"""common/unicode_norm against HF tokenizers' NFC/NFD/NFKC/NFKD/Lowercase.

HF is the reference: its normalization data is Unicode 9.0 and its
lowercase is Rust's char::to_lowercase (see tools/gen_unicode_norm.py).
"""
import itertools
import pathlib

import pytest
from hooks_module import hooks

tokenizers = pytest.importorskip("tokenizers")
unicodedata2 = pytest.importorskip("unicodedata2")
from hypothesis import given, settings, strategies as st  # noqa: E402
from tokenizers import normalizers  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "text"
FORMS = ["NFC", "NFD", "NFKC", "NFKD"]
HF = {f: getattr(normalizers, f)() for f in FORMS}
HF_LOWER = normalizers.Lowercase()


T = hooks()


def ours(form, text):
    return T.to_lower(text) if form == "lower" else T.normalize(form, text)


def hf(form, text):
    return (HF_LOWER if form == "lower" else HF[form]).normalize_str(text)


def esc(s):
    return s.encode("unicode_escape").decode("ascii")


def assert_same_lines(form, cases):
    """Checks each case; cases are joined by newlines (a code point nothing
    combines with) so that each engine is called once per chunk."""
    mismatches = []
    for start in range(0, len(cases), 2048):
        chunk = cases[start:start + 2048]
        joined = "\n".join(chunk)
        if ours(form, joined) == hf(form, joined):
            continue
        for case in chunk:
            a, b = ours(form, case), hf(form, case)
            if a != b:
                mismatches.append("%s: %s -> mtok %s, hf %s" % (form, esc(case), esc(a), esc(b)))
    assert not mismatches, "%d mismatches, first: %s" % (len(mismatches), mismatches[:20])


ALL_CODE_POINTS = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp < 0xE000 and cp != 10]


@pytest.mark.parametrize("form", FORMS + ["lower"])
def test_every_code_point_alone(form):
    assert_same_lines(form, ALL_CODE_POINTS)


# --- NormalizationTest-style constructed cases -------------------------------

MARKS = [chr(cp) for cp in range(0x110000)
         if not 0xD800 <= cp < 0xE000 and unicodedata2.combining(chr(cp))]
# One mark per combining class, so every class meets every other.
REP_MARKS = list({unicodedata2.combining(m): m for m in MARKS}.values())


def _pairs():
    """Canonical two-code-point decompositions (composition candidates)."""
    out = []
    for cp in range(0x110000):
        raw = unicodedata2.decomposition(chr(cp)) if not 0xD800 <= cp < 0xE000 else ""
        if raw and not raw.startswith("<") and len(raw.split()) == 2:
            out.append(tuple(chr(int(x, 16)) for x in raw.split()))
    return out


PAIRS = _pairs()


def test_marks_in_both_orders():
    cases = []
    for m in MARKS:
        for r in REP_MARKS:
            cases += ["a" + m + r, "a" + r + m, "\u0391" + m + r + m]
    for form in FORMS:
        assert_same_lines(form, cases)


def test_composition_pairs_blocked_and_not():
    cases = []
    for a, b in PAIRS:
        cases += [a + b, b + a, a + a + b, a + b + b]
        for r in REP_MARKS[::3]:
            cases += [a + r + b, a + b + r, r + a + b]
        cases.append(a + "\u0334" + b + "\u0301")
    for form in FORMS:
        assert_same_lines(form, cases)


def test_decomposed_marks_permuted():
    """Composites with several marks, the marks in every order."""
    cases = []
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        d = unicodedata2.normalize("NFD", chr(cp))
        if 3 <= len(d) <= 5:
            cases += [d[0] + "".join(p) for p in itertools.permutations(d[1:])]
    for form in FORMS:
        assert_same_lines(form, cases)


def test_long_mark_runs():
    """Runs longer than the in-place insertion sort handles, and a hostile one."""
    cases = ["a" + "".join(REP_MARKS[::-1]) * k for k in (1, 2, 5)]
    cases.append("e" + "\u0301\u0316\u0327" * 20000 + "x\u0300")
    for form in FORMS:
        for case in cases:
            assert ours(form, case) == hf(form, case), form
    out, src = T.normalize_with_src("NFD", cases[-1])
    assert sorted(src) == list(range(len(cases[-1])))


def test_hangul():
    L = [chr(0x1100 + i) for i in range(19)]
    V = [chr(0x1161 + i) for i in range(21)]
    T = [chr(0x11A7 + i) for i in range(28)]  # includes U+11A7, which never composes
    cases = [l + v for l in L for v in V]
    cases += [l + v + t for l in L for v in V for t in T]
    cases += [chr(s) + t for s in range(0xAC00, 0xD7A4, 7) for t in T[:4] + V[:2]]
    cases += [l + "\u0300" + v for l in L for v in V[:3]]
    cases += ["\u1100\u1161\u11a8\u11a8", "\uac00\u0301\u11a8", "\u1100\u3131\u1161"]
    for form in FORMS:
        assert_same_lines(form, cases)


# --- corpus: every line of every text file ----------------------------------

CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file()) if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS_FILES, reason="corpus text not found at %s" % CORPUS)
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_lines(path):
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    mismatches = []
    for form in FORMS + ["lower"]:
        for n, line in enumerate(lines, 1):
            if ours(form, line) != hf(form, line):
                mismatches.append("%s line %d: %s" % (form, n, esc(line[:80])))
    assert not mismatches, "%d mismatches: %s" % (len(mismatches), mismatches[:10])


# --- src mapping --------------------------------------------------------------

def check_src(form, text):
    out, src = T.normalize_with_src(form, text)
    assert out == T.normalize(form, text)
    assert len(src) == len(out)
    assert all(0 <= s < len(text) for s in src)
    if form in ("NFD", "NFKD"):
        # Each input code point owns exactly its own decomposition, in order.
        for j, ch in enumerate(text):
            assert "".join(out[i] for i in range(len(out)) if src[i] == j) == \
                T.normalize(form, ch), (esc(text), j)
    return out, src


def test_src_examples():
    assert check_src("NFC", "e\u0301x") == ("\u00e9x", [0, 2])
    assert check_src("NFC", "\u00e9\u0301") == ("\u00e9\u0301", [0, 1])
    assert check_src("NFC", "a\u0301\u0316") == ("\u00e1\u0316", [0, 2])
    assert check_src("NFC", "\u1100\u1161\u11a8!") == ("\uac01!", [0, 3])
    assert check_src("NFD", "a\u0301\u0316") == ("a\u0316\u0301", [0, 2, 1])
    assert check_src("NFD", "\uac01") == ("\u1100\u1161\u11a8", [0, 0, 0])
    assert check_src("NFKC", "\ufb01\u00e9") == ("fi\u00e9", [0, 0, 1])
    assert check_src("NFKD", "\u2460") == ("1", [0])


def test_lowercase_examples():
    assert T.to_lower("\u0130") == "i\u0307"
    assert T.to_lower("\u0391\u03a3") == "\u03b1\u03c3"  # no final-sigma context
    assert T.to_lower("\U00016EA0\U00010D50") == "\U00016EBB\U00010D70"  # Unicode 17 / 16


def test_combining_class():
    assert T.combining_class(0x0301) == 230
    assert T.combining_class(0x1E944) == 230  # Unicode 9.0
    assert T.combining_class(0x0D3B) == 0     # Unicode 10.0: unknown to HF's tables
    assert T.combining_class(ord("a")) == 0


# --- Hypothesis ---------------------------------------------------------------

ANY = st.characters(blacklist_categories=("Cs",))
# Code points that make normalization work: marks, Hangul jamo, composites.
INTERESTING = st.sampled_from(
    MARKS[:400] + REP_MARKS + [a for a, _ in PAIRS[:600]]
    + [chr(c) for c in range(0x1100, 0x1200)] + [chr(c) for c in range(0xAC00, 0xAC40)]
    + ["\u0130", "\u03a3", "\ufb01", "\u2460", "\u3300", "a", " ", "\u00e9"])
TEXT = st.text(st.one_of(ANY, INTERESTING, INTERESTING), max_size=40)


@settings(max_examples=1000, deadline=None)
@given(TEXT)
def test_hypothesis_matches_hf(text):
    for form in FORMS + ["lower"]:
        assert ours(form, text) == hf(form, text), (form, esc(text))
    for form in FORMS:
        check_src(form, text)
