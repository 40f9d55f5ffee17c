"""common/regex against the real engines: HF tokenizers 0.23.3 (Oniguruma,
through a Split pre-tokenizer) for the Oniguruma dialect and tiktoken 0.14.0
(fancy-regex) for the Rust dialect, on the corpus, edge cases and random
text and patterns. Zero mismatches is the bar."""

from pathlib import Path

import pytest
import tiktoken
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tokenizers import Regex as HfRegex
from tokenizers import pre_tokenizers

from hooks_module import hooks

native = hooks()

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "text"

# As tokenizer.json files carry them (GPT-2's is ByteLevel's built-in one).
HF_PATTERNS = {
    "gpt2": r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""",
    "llama3": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    "qwen": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    "o200k": r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    "xlmr-replace": r" {2,}",
}
# As tiktoken_ext.openai_public defines them, plus the HF ones (valid in both).
TIKTOKEN_PATTERNS = {
    "r50k": r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s""",
    "cl100k": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    "o200k": HF_PATTERNS["o200k"],
    # o200k written the way cl100k is (possessive), to exercise possessives.
    "o200k-possessive": HF_PATTERNS["o200k"].replace("]?[", "]?+[").replace("]*[", "]*+[")
                                             .replace("]+(", "]++(").replace("{1,3}", "{1,3}+"),
    "gpt2": HF_PATTERNS["gpt2"],
    "llama3": HF_PATTERNS["llama3"],
    "qwen": HF_PATTERNS["qwen"],
}

EDGE_CASES = [
    "", " ", "\n", "'", "''", "'s", "a's", "'ll've", "...", "!!!\n\n", "x",
    "²½Ⅻ", "x²", "10½ Ⅻ century", "①②③", "١٢٣ ٣.١٤", "12345678", "1,000,000.5",
    "\x85", "a\x85b", " \x85 ", "a\x1cb\x1d c\x1e\x1f", "\x1c\x1d\x1e\x1f", " \x1f ",
    "\u00a0", "a\u00a0b", "\u3000x", "a\u2009b", "\u2028\u2029", "\u180e", "\u200b x",
    "camelCaseString", "HTTPServerError", "iPhone", "XMLHttpRequest", "ǅungla ǈ", "ΣΑΣ σας",
    "I'M", "You'Re", "DON'T", "she'S", "they'VE", "we'LL", "I'D", "'s'S'ſ", "it'ſ", "'K'\u212a",
    "a\r\nb", "\r\n\r\n", " \r\n \r\n  ", "\r\r\n\n", "x \r\n", "a\n\n\n b", "   \n  \t\n",
    "\t\t", "abc   ", "   abc", "a  \n  b", "  \n", "\n  ", " \n \n ", "\r", "\r \r",
    "👨\u200d👩\u200d👧\u200d👦", "🏳️\u200d🌈", "👍🏽", "a👨\u200d💻b", "🇺🇸🇬🇧", "😀😀 😀",
    "e\u0301", "\u0301", "a\u0301\u0302b", "नमस्ते दुनिया", "สวัสดีครับ", "안녕하세요", "こんにちは世界", "Привет, мир!",
    # New in Unicode 15.0 (Kawi, Nag Mundari), 15.1 (CJK Ext. I), 16.0 (Garay
    # upper/lower case, U+1C89, U+A7CB), 17.0 (U+088F, U+0C5C: not letters yet).
    "\U00011f04\U00011f05", "\U0001e4d0\U0001e4d1", "\U0002ebf0\U0002ebf1", "\u1c89\u1c8a",
    "\ua7cb\ua7cc", "\U00010d50\U00010d70", "x\U00010d50\U00010d70y", "\u088f\u0c5c", "a\u088fb",
    "http://x.y/z?a=1", "a/b//c\n", "foo_bar", "<|endoftext|>", "ΐ ΐ", "ﬆ ﬅ", "ß SS ẞ",
]


def corpus_files():
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file())


def need_corpus():
    if not CORPUS.is_dir():
        pytest.skip(f"corpus absent: {CORPUS} (../shared/corpus/text from the repo root)")


def lines_of(text):
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def to_char_offsets(text, spans):
    """Byte offsets (sorted by start) -> char offsets."""
    data = text.encode()
    out, byte_pos, char_pos = [], 0, 0

    def advance(b):
        nonlocal byte_pos, char_pos
        char_pos += len(data[byte_pos:b].decode())
        byte_pos = b
        return char_pos

    for a, b in spans:
        out.append((advance(a), advance(b)))
    return out


# --- HF (Oniguruma) -------------------------------------------------------

class HfRef:
    def __init__(self, pattern):
        self.matched = pre_tokenizers.Split(HfRegex(pattern), "removed", invert=True)
        self.isolated = pre_tokenizers.Split(HfRegex(pattern), "isolated")

    def observe(self, text):
        """Non-empty matches, and the Isolated split (which empty matches cut)."""
        return ([off for _, off in self.matched.pre_tokenize_str(text)],
                [off for _, off in self.isolated.pre_tokenize_str(text)])


def isolated_from(spans, n):
    out, prev = [], 0
    for a, b in spans:
        if prev != a:
            out.append((prev, a))
        out.append((a, b))
        prev = b
    if prev != n:
        out.append((prev, n))
    return [s for s in out if s[0] != s[1]]


def ours_observed(regex, text):
    spans = to_char_offsets(text, regex.find_all(text))
    return [s for s in spans if s[0] != s[1]], isolated_from(spans, len(text))


def hf_mismatches(pattern, texts):
    ref, ours = HfRef(pattern), native.Regex.compile(pattern, "oniguruma")
    return [t for t in texts if ref.observe(t) != ours_observed(ours, t)]


# --- tiktoken (fancy-regex) ------------------------------------------------
# tiktoken only exposes token ids, but a token never spans two regex matches.
# Give it a rank table with every single byte, every piece we predict and
# every concatenation of two adjacent predicted pieces. If tiktoken's matches
# equal ours, each is one token (it is in the table). If a tiktoken match
# spanned two of ours, BPE would merge them (their concatenation is ranked),
# so the tokens could not be our pieces; if one of ours held two of tiktoken's,
# that piece could not be a token. So tokens == our pieces iff the matches agree.

def tiktoken_mismatches(pattern, texts):
    ours = native.Regex.compile(pattern, "rust")
    predicted = {}
    ranks = {bytes([i]): i for i in range(256)}
    for t in texts:
        data = t.encode()
        spans = ours.find_all(t)
        assert all(a < b for a, b in spans), "tiktoken cannot take empty matches"
        pieces = [data[a:b] for a, b in spans]
        predicted[t] = pieces
        for i, p in enumerate(pieces):
            ranks.setdefault(p, len(ranks))
            if i + 1 < len(pieces) and spans[i][1] == spans[i + 1][0]:
                ranks.setdefault(p + pieces[i + 1], len(ranks))
    enc = tiktoken.Encoding(name="oracle", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    return [t for t in texts if enc.decode_tokens_bytes(enc.encode_ordinary(t)) != predicted[t]]


def test_tiktoken_oracle_detects_a_wrong_split():
    enc = tiktoken.Encoding(name="oracle", pat_str=r"\p{L}+|\s+|.",
                            mergeable_ranks={bytes([i]): i for i in range(256)} | {b"ab": 256, b"ab c": 257},
                            special_tokens={})
    # Matches are "ab", " ", "c": with "ab c" ranked, a wrong prediction
    # ["ab c"] does not come back, the right one does.
    assert enc.decode_tokens_bytes(enc.encode_ordinary("ab c")) == [b"ab", b" ", b"c"]


# --- corpus ----------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(HF_PATTERNS))
def test_corpus_vs_hf(name):
    need_corpus()
    pattern = HF_PATTERNS[name]
    for path in corpus_files():
        text = path.read_text(encoding="utf-8")
        bad = hf_mismatches(pattern, [text] + lines_of(text))
        assert not bad, f"{name} on {path.name}: {len(bad)} mismatches, first {bad[0][:200]!r}"


@pytest.mark.parametrize("name", sorted(TIKTOKEN_PATTERNS))
def test_corpus_vs_tiktoken(name):
    need_corpus()
    pattern = TIKTOKEN_PATTERNS[name]
    for path in corpus_files():
        text = path.read_text(encoding="utf-8")
        bad = tiktoken_mismatches(pattern, [text] + lines_of(text))
        assert not bad, f"{name} on {path.name}: {len(bad)} mismatches, first {bad[0][:200]!r}"


@pytest.mark.parametrize("name", sorted(HF_PATTERNS))
def test_edge_cases_vs_hf(name):
    assert hf_mismatches(HF_PATTERNS[name], EDGE_CASES) == []


@pytest.mark.parametrize("name", sorted(TIKTOKEN_PATTERNS))
def test_edge_cases_vs_tiktoken(name):
    assert tiktoken_mismatches(TIKTOKEN_PATTERNS[name], [t for t in EDGE_CASES if t]) == []


def test_gpt2_known_pieces():
    text = "Hello world's  123 ²½Ⅻ \x85x\x1c  \n\n"
    data = text.encode()
    got = [data[a:b].decode() for a, b in native.regex_find_all(HF_PATTERNS["gpt2"], text)]
    # U+0085 is \s and U+001C is not; ² ½ Ⅻ are \p{N}.
    assert got == ["Hello", " world", "'s", " ", " 123", " ²½Ⅻ", " ", "\x85", "x", "\x1c", "  \n\n"]


# --- random text -----------------------------------------------------------

INTERESTING = (list("aZ'sStTdDmMlLvVrReE0159 \t\r\n\x0b\x0c.,!?/-_") +
               ["\x85", "\xa0", "\u3000", "\u2028", "\x1c", "\x1f", "²", "½", "Ⅻ", "é", "ǅ", "ſ",
                "\u212a", "ß", "\u0301", "\u200d", "👍", "🏽", "中", "あ", "ﬆ", "\U00010d50",
                "\U00010d70", "\u088f", "\U0002ebf0", "١"])
interesting_text = st.text(alphabet=st.sampled_from(INTERESTING), max_size=40)
any_text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=30)


@settings(max_examples=400, deadline=None)
@given(st.one_of(interesting_text, any_text), st.sampled_from(sorted(HF_PATTERNS)))
def test_random_text_vs_hf(text, name):
    assert hf_mismatches(HF_PATTERNS[name], [text]) == []


@settings(max_examples=300, deadline=None)
@given(st.one_of(interesting_text, any_text), st.sampled_from(sorted(TIKTOKEN_PATTERNS)))
def test_random_text_vs_tiktoken(text, name):
    assume(text)
    assert tiktoken_mismatches(TIKTOKEN_PATTERNS[name], [text]) == []


# --- random patterns: engine semantics in both dialects -------------------

ATOMS = ["a", "b", "A", "s", "S", "'", " ", "\\n", "\\r", "x", "ſ", "1", ".", "[ab]", "[^a]", "[a-c]",
         "[^\\s\\p{L}]", "[\\r\\n]", "[^\\r\\n\\p{L}\\p{N}]", "\\p{L}", "\\p{Lu}", "\\P{Ll}", "\\p{^N}",
         "\\p{N}", "[\\p{Lu}x]", "\\s", "\\S", "\\d", "\\D", "\\w", "\\W", "[\\w']", "\\x{41}", "\\u00e9",
         "\\t", "é", "σ", "[^\\P{Lu}]", "[^k]"]
ANCHORS = ["^", "$", "\\A", "\\z"]
FLAGS = ["(?i)", "(?-i)", "(?m)", "(?s)"]  # scoped differently by the two dialects
QUANTIFIERS = ["*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}"]


def _quantified(p):
    return st.tuples(p, st.sampled_from(QUANTIFIERS), st.sampled_from(["", "?", "+"])).map(
        lambda t: f"(?:{t[0]}){t[1]}{t[2]}")


patterns = st.recursive(
    st.sampled_from(ATOMS) | st.sampled_from(ANCHORS) | st.sampled_from(FLAGS),
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map("".join),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(?:" + "|".join(xs) + ")"),
        inner.map(lambda x: f"({x})"),
        inner.map(lambda x: f"(?i:{x})"),
        inner.map(lambda x: f"(?={x})"),
        inner.map(lambda x: f"(?!{x})"),
        inner.map(lambda x: f"(?>{x})"),
        _quantified(inner),
    ),
    max_leaves=6,
)
pattern_texts = st.lists(st.text(alphabet=st.sampled_from(list("abAB' \n\rsSx1é\u212aſ²K\t.ßσςΣǅ")),
                                 max_size=12), min_size=1, max_size=4)


def _compile(pattern, dialect, reference):
    """Our regex; None (after checking the reference rejects it too) when malformed."""
    try:
        return native.Regex.compile(pattern, dialect)
    except ValueError as e:
        assume("unsupported" not in str(e))
    with pytest.raises(Exception):
        reference(pattern)
    return None


@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(patterns, pattern_texts)
def test_random_patterns_vs_hf(pattern, texts):
    ours = _compile(pattern, "oniguruma", HfRef)
    if ours is None:
        return
    try:
        ref = HfRef(pattern)
    except Exception as e:  # Oniguruma rejects a few things we run, e.g. (?:^)?
        assume("Oniguruma error" not in str(e))
        raise
    for t in texts:
        assert ref.observe(t) == ours_observed(ours, t), (pattern, t)


@settings(max_examples=600, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(patterns, pattern_texts)
def test_random_patterns_vs_tiktoken(pattern, texts):
    ours = _compile(pattern, "rust", lambda p: tiktoken.Encoding(
        name="t", pat_str=p, mergeable_ranks={b"a": 0}, special_tokens={}))
    if ours is None:
        return
    # tiktoken panics on empty matches: keep texts where every match is non-empty.
    texts = [t for t in texts if t and all(a < b for a, b in ours.find_all(t))]
    assume(texts)
    try:
        bad = tiktoken_mismatches(pattern, texts)
    except ValueError as e:  # fancy-regex rejects a few things we run
        assume("Error compiling regex" not in str(e) and "Parsing error" not in str(e))
        raise
    assert bad == [], pattern


# --- dialect behaviour, errors, long inputs ------------------------------

ONIG_CASES = [
    (r"a(?i)b|c", ["c", "C", "aC", "ab", "AB"]),  # (?i) takes the rest of the group: a(?i:b|c)
    (r"x{2}+", ["xxxx", "xxxxx"]), (r"x{2}?", ["x", "xx", "xxx"]), (r"a{1,2}?", ["aa"]),
    (r"^b", ["a\nb", "b"]), (r"a$", ["a\nb", "a"]), (r"\n^", ["\n", "\nx"]), (r"(?m)a.b", ["a\nb"]),
    (r"(?i)\p{Lu}", ["a", "A"]), (r"(?i)\P{Lu}", ["A", "a"]), (r"(?i)[^k]", ["\u212a", "K", "x"]),
    (r"\w", ["²½", "\u200c"]), (r"[\w]", ["²"]), (r"\W", ["²"]), (r"(?i:ſ)", ["S", "s"]),
    (r"a|(?=c)", ["abc"]), (r"x*", ["axxb", ""]), (r"(?>a+)a", ["aaa"]), (r"(?:ab)*?c", ["ababc"]),
    (r"\p{^L}+", ["ab12"]), (r"[^\P{L}]+", ["ab12"]), (r"[a-c[x-z]]+", ["abxyq"]), (r"[]a]+", ["]a]"]),
    (r"a{3", ["a{3"]), (r"[\x41-\x{5A}]+", ["ABZ["]),
]
RUST_CASES = [
    (r"a(?i)b|c", ["c", "C", "aC", "aB"]),  # (?i) from here on, across the '|'
    (r"(?i)\p{Lu}", ["a"]), (r"(?i)[^\P{Lu}]", ["a"]), (r"\w", ["\u200c", "²"]), (r"(?m)^a", ["b\na"]),
    (r"a$", ["a\na", "a"]), (r"(?m)\n^", ["\n"]), (r"(?s)a.", ["a\n"]), (r"x{2}+", ["xxx"]),
    (r"x{1,3}+x", ["xxxx", "xx"]), (r"a++b", ["aab"]), (r"\xe9|\u00e9", ["é"]),
]


@pytest.mark.parametrize("pattern,texts", ONIG_CASES)
def test_oniguruma_dialect_cases(pattern, texts):
    assert hf_mismatches(pattern, texts) == []


@pytest.mark.parametrize("pattern,texts", RUST_CASES)
def test_rust_dialect_cases(pattern, texts):
    assert tiktoken_mismatches(pattern, texts) == []


UNSUPPORTED_BOTH = [r"(?<=a)b", r"(?<!a)b", r"(?<n>a)", r"(?P<n>a)", r"(a)\1", r"\bx", r"[[:alpha:]]",
                    r"[a&&b]", r"[a~~b]", r"[--b]", r"\p{Greek}", r"\pL", r"(?x)a", r"a**", r"a+*", r"(?:a*)*",
                    r"(?:a|)+", r"\Z", r"\h", r"\K", r"\G", r"x{,3}", r"a{3,2}", r"(?#c)", r"^*",
                    r"(?=a)+", r"\0", r"\cA", r"\U00000041", r"\u{41}", r"\x4", r"a{100001}", r"\é"]
UNSUPPORTED_RUST = [r"((?i))a", r"(?=(?i))a", r"(?>(?i))a", r"(x|(?i))a"]  # fancy-regex leaks the flag
UNSUPPORTED_ONIG = [r"\xff", r"(?i)ss", r"(?i)s(?:s)", r"(?i)xSt", r"(?i)ß", r"(?i)[ß]", r"(?i)[\p{L}]",
                    r"(?i)[\p{Lu}]",
                    r"(?i)[^\D]", r"(?i)ﬀ"]
MALFORMED = [r"(", r")", r"a)", r"[a", r"*a", r"a\\"[:-1], r"[z-a]", r"\x{110000}", r"\x{D800}", r"[\d-z]",
             r"(?i", r"\p{L"]


@pytest.mark.parametrize("dialect", ["oniguruma", "rust"])
@pytest.mark.parametrize("pattern", UNSUPPORTED_BOTH)
def test_unsupported(pattern, dialect):
    with pytest.raises(ValueError, match=r"unsupported .* at offset \d+ in pattern"):
        native.Regex.compile(pattern, dialect)


@pytest.mark.parametrize("pattern", UNSUPPORTED_ONIG)
def test_unsupported_in_oniguruma_only(pattern):
    with pytest.raises(ValueError, match=r"unsupported .* at offset \d+ in pattern"):
        native.Regex.compile(pattern, "oniguruma")
    native.Regex.compile(pattern, "rust")


@pytest.mark.parametrize("pattern", UNSUPPORTED_RUST)
def test_unsupported_in_rust_only(pattern):
    with pytest.raises(ValueError, match=r"unsupported .* at offset \d+ in pattern"):
        native.Regex.compile(pattern, "rust")
    native.Regex.compile(pattern, "oniguruma")


@pytest.mark.parametrize("dialect", ["oniguruma", "rust"])
@pytest.mark.parametrize("pattern", MALFORMED)
def test_malformed(pattern, dialect):
    with pytest.raises(ValueError, match=r"^regex: (?!unsupported).* at offset \d+ in pattern$"):
        native.Regex.compile(pattern, dialect)


def test_oniguruma_rejects_s_flag_but_rust_takes_it():
    with pytest.raises(ValueError, match="undefined group option"):
        native.Regex.compile("(?s)a", "oniguruma")
    assert native.regex_find_all("(?s)a.", "a\n", "rust") == [(0, 2)]


LONG = 1 << 16
LONG_INPUTS = ["a" * LONG, " " * LONG, " " * LONG + "x", "\n" * LONG, "1" * LONG, "A" * LONG,
               "!" * LONG, "'s" * (LONG // 2), "\r\n" * (LONG // 2), "ab " * (LONG // 3),
               "\u00e9" * LONG, "a" + " " * LONG + "\n" * LONG]


@pytest.mark.parametrize("name", sorted(HF_PATTERNS))
def test_long_inputs_vs_hf(name):
    assert hf_mismatches(HF_PATTERNS[name], LONG_INPUTS) == []


@pytest.mark.parametrize("name", sorted(HF_PATTERNS))
def test_megabyte_inputs(name):
    # 1 MB of one character must neither overflow a stack nor go quadratic.
    import time
    regex = native.Regex.compile(HF_PATTERNS[name])
    for text in ["a" * (1 << 20), " " * (1 << 20), " " * (1 << 20) + "a", "\n" * (1 << 20)]:
        start = time.perf_counter()
        got = regex.find_all(text)
        assert time.perf_counter() - start < 2.0
        assert hf_mismatches(HF_PATTERNS[name], [text]) == []


def test_long_input_general_loop():
    text = "ab" * (1 << 19)
    assert native.regex_find_all(r"(?:ab)*c|(?:ab)+", text) == [(0, len(text))]
    assert native.regex_find_all(r"(?:a|b)+?$", text, "rust") == [(0, len(text))]


def test_find_all_from_threads():
    from concurrent.futures import ThreadPoolExecutor
    regex = native.Regex.compile(HF_PATTERNS["o200k"])
    texts = [t * 200 for t in EDGE_CASES if t]
    expected = [regex.find_all(t) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(regex.find_all, texts)) == expected


# --- classes over the whole code space ------------------------------------

ALL_SCALARS = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)
CLASSES = [r"\w", r"[\w]", r"\W", r"\s", r"\d", r"[^\r\n\p{L}\p{N}]", r"[^\s\p{L}\p{N}]",
           r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]", r"\p{Word}", r"\P{Any}", r"(?i)\p{Lu}", r"(?i)[a-z]"]


@pytest.mark.parametrize("dialect", ["oniguruma", "rust"])
@pytest.mark.parametrize("pattern", CLASSES)
def test_class_over_all_code_points(pattern, dialect):
    data = ALL_SCALARS.encode()
    ours = {data[a:b].decode() for a, b in native.regex_find_all(pattern, ALL_SCALARS, dialect)}
    if dialect == "oniguruma":
        split = pre_tokenizers.Split(HfRegex(pattern), "removed", invert=True)
        ref = {c for piece, _ in split.pre_tokenize_str(ALL_SCALARS) for c in piece}
    else:
        enc = tiktoken.Encoding(name="t", pat_str=pattern,
                                mergeable_ranks={bytes([i]): i for i in range(256)}, special_tokens={})
        ref = {c for i in range(0, len(ALL_SCALARS), 1 << 16)
               for c in enc.decode_bytes(enc.encode_ordinary(ALL_SCALARS[i:i + (1 << 16)])).decode()}
    assert ours == ref
