"""The hand-written pre-token scanners give exactly the regex engine's
matches (which the regex tests hold to HF and tiktoken) on the corpus, on
edge cases and on random text."""

import pytest
from hypothesis import given, settings, strategies as st

import corpus
from hooks_module import hooks
from mtok.convert.openai_encodings import CL100K_PATTERN, O200K_PATTERN, R50K_PATTERN

T = hooks()

GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
LLAMA3 = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
          r"""|\s*[\r\n]+|\s+(?!\S)|\s+""")
QWEN = LLAMA3.replace(r"\p{N}{1,3}", r"\p{N}")

# (pattern, rust dialect?)
PATTERNS = {
    "gpt2": (GPT2, False),
    "llama3": (LLAMA3, False),
    "qwen": (QWEN, False),
    "o200k-hf": (O200K_PATTERN, False),
    "r50k": (R50K_PATTERN, True),
    "cl100k": (CL100K_PATTERN, True),
    "o200k": (O200K_PATTERN, True),
}

EDGE = [
    "", " ", "  ", "a", "'s", "'S", "'ſ", "don't I'LL we've 'RE", "x  y", "x \n\n y  ", "a\n  ",
    "\r\n\r\n", " \t\n \u00a0x", "² ½ Ⅻ 123456 ١٢٣", "\u0085\u001c\u001d x", "CamelCaseWord HTMLParser",
    "éÉ ǅungla ʰʰa", "a\u0301\u0302b", "\u0301abc", "ﬁ", "👍🏽 👨‍👩‍👧", "日本語テキスト",
    "foo/bar\n/baz", "...!!!   ", "  \u3000x", "\t\tif (x) {\n\t\treturn;\n}", "'", "''s", "a'", "🙂'S",
]


def spans(pattern, rust, text):
    s = T.scanner_find_all(pattern, rust, text)
    assert s is not None, "pattern not recognised by a scanner"
    return s


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_edge_cases(name):
    pattern, rust = PATTERNS[name]
    dialect = "rust" if rust else "oniguruma"
    for text in EDGE:
        assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, dialect), repr(text)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_corpus(name):
    pattern, rust = PATTERNS[name]
    dialect = "rust" if rust else "oniguruma"
    files = corpus.text_files()
    if not files:
        pytest.skip("corpus text not found")
    for fname, text in files:
        assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, dialect), fname


# Long letter runs of each script, broken by a non-letter whose lead byte
# is a letter's (U+4DC0 shares E4 with CJK letters, U+00D7 shares C3 with
# Latin ones) or by anything else, at every offset.
LONG_RUNS = ["日本語中文字词汉", "Привет", "한국어문장", "aé日Яbc", "ĀāĂăĄą", "Sprachebene"]
BREAKS = ["\u4dc0", "\u00d7", "、", "1", " ", "\u0301", "!", "\n", "👍"]


@pytest.mark.parametrize("name", ["llama3", "qwen", "cl100k", "o200k"])
def test_long_letter_runs_broken_at_every_offset(name):
    pattern, rust = PATTERNS[name]
    dialect = "rust" if rust else "oniguruma"
    texts = []
    for run in LONG_RUNS:
        long = run * 30
        for k in range(0, 110):
            for b in BREAKS:
                texts.append(long[:k] + b + long[:70])
                texts.append(" " + long[:k] + b)
    joined = "\x00".join(texts)
    if spans(pattern, rust, joined) != T.regex_find_all(pattern, joined, dialect):
        for text in texts:
            assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, dialect), repr(text)


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("aA'sStTlLdD \t\r\n/.,1²ſ\u0301\u00a0\u3000ǅʰ日é👍")) | st.characters(blacklist_categories=("Cs",)),
                    max_size=40))
def test_random(name, text):
    pattern, rust = PATTERNS[name]
    dialect = "rust" if rust else "oniguruma"
    assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, dialect)


def test_unknown_pattern_has_no_scanner():
    assert T.scanner_find_all(r"\w+", False, "abc") is None


# Alphabets that reach the shortcuts' branches and the cases they leave to
# the full scanner. ASCII: the ASCII shortcuts (ascii_match.h), which
# decide most pre-tokens of ASCII text, and the non-ASCII bytes that must
# send them back. Scripts: the code-point shortcuts (unicode_match.h), for
# words and punctuation runs of any script (cased and caseless letters, Lt
# and Lm, combining marks before and inside words, non-ASCII digits,
# punctuation and spaces, apostrophes and ſ).
SHORTCUT_ALPHABETS = {
    "ascii": list("aAzZ09'sStTlLrReEvVmMdD \t\r\n\x0b\x1c/.,;!$-_") + ["\u00e9", "\u017f", "\u00c9", "\u0663", "\u2014"],
    "scripts": list("aA' .,\n\t1") + list("привет ПРИВЕТ Ёё người Việt ΣσςΩ 日本語。，、「」 ǅʰ ١٢ Ⅻ ’—«»“”") + [
        "\u0301", "\u0303", "\u00a0", "\u3000", "\u017f", "\u0640", "\U0001d400", "\U0001f44d"],
}


@pytest.mark.parametrize("alphabet", sorted(SHORTCUT_ALPHABETS))
@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=1500, deadline=None)
@given(data=st.data())
def test_random_shortcuts(name, alphabet, data):
    text = data.draw(st.text(alphabet=st.sampled_from(SHORTCUT_ALPHABETS[alphabet]), max_size=30))
    pattern, rust = PATTERNS[name]
    dialect = "rust" if rust else "oniguruma"
    assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, dialect)


# Long ASCII stretches: the Llama-3, cl100k and o200k families' scanners classify
# 64 bytes at a time (ascii_blocks.h). Their rules meet every neighbour of
# a class here: contractions with letters after them, prefixes of one
# character, runs of \s with line breaks inside and at either end,
# punctuation runs taking line breaks (and o200k's '/'), digit runs longer
# than k, o200k's case changes inside words and contractions after them;
# and non-ASCII bytes at every offset of a block end the stretch it decides.
# The blocks also take two-byte letters: Llama-3's, Qwen's and cl100k's
# U+00C0-U+027F but × and ÷, and Cyrillic's U+0400-U+047F; o200k's, whose
# words split at case changes, U+00C0-U+00FF and U+0400-U+045F (upper case
# to U+00DE and U+042F). Here the first and last of those ranges and of
# their cases, × and ÷, ſ (which (?i) folds to s: "'ſ" is a contraction), the
# two-byte characters around them that are no letter of theirs (U+00BF and
# U+00A0, U+02C2 a symbol, U+0300 a mark, U+0482 a symbol, U+0483 a mark),
# letters past them (U+0280, U+0460, U+0481), and the letters of other
# two-byte scripts (Greek, Armenian, Hebrew, Arabic: Lu, Ll, Lo, Lm), which
# stop a block, beside their marks, digits, punctuation and gaps.
BLOCK_ALPHABET = list("aAzZsStTlLrReEvVmMdD09'' \t\r\n\x0b\x0c\x1c/.,;!$-_") + [
    "\u00e9", "\u00a0", "\u0663", "\u017f", "\u0400", "\u043f", "\u0440", "\u047f", "\u0451", "\u0416",
    "\u0481", "\u0482", "\u0483", "\u03a3", "\u00c0", "\u00d7", "\u00f7", "\u00ff", "\u00bf", "\u0100",
    "\u024f", "\u027f", "\u0280", "\u02c2", "\u0300", "\u00df", "\u011f", "\u0131", "\u00de", "\u042f",
    "\u0430", "\u045f", "\u0460", "\u03b1", "\u03a9", "\u03c2", "\u0390", "\u0387", "\u0384", "\u0378",
    "\u0531", "\u0561", "\u05d0", "\u05b0", "\u0627", "\u0640", "\u064e", "\u0660", "\u061f", "\u06a9",
    "\u00aa", "\u00b5", "\u01c5", "\u02b0", "\u07fa"]
BLOCK_TEXT = ("don't I'LL we've 'tis x'sa 're'ller .word x.word  .x \tword\t.x  1 12345678 a\n\n  b .\n\n x .\r\n"
              "  \n \n c 'S ''s a  \n\t\x0b\x0cq; //x !!\n-y I'm 3'd helloWorld HTMLParser aBC don'tcha x's's x'rE"
              " WE'RE ./\n .\n/x */\n\n/ a/b Привет, мир! 'tпр x'Ѐѿ .ёж\tЖ1 aб2 вс'S "
              "Grüße, café ÿé 2×3 ÷4 x'ſa 'ſ 'ſt İstanbul'da ağaç ǅɏɐʯ ʰx à'S 'é "
              "aÀb ÀÉé éA ÞßÐ helloÀWorld МоскваЯя ЁёЯ џѠѡ naïveTÉ É's "
              "Καλημέρα κόσμε· ΩραίαΑ. مرحبا بالعالم، کتابِ فارسی؟ ٠١ שלום עולם Բարեւ աշխարհ ªµº ǅa aǅ ʰʰ x'ﬀ ")
BLOCK_PATTERNS = ["llama3", "qwen", "cl100k", "o200k-hf", "o200k"]


@pytest.mark.parametrize("name", BLOCK_PATTERNS)
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_random_ascii_blocks(name, data):
    subset = data.draw(st.lists(st.sampled_from(BLOCK_ALPHABET), min_size=2, max_size=12, unique=True))
    text = data.draw(st.text(alphabet=st.sampled_from(subset + BLOCK_ALPHABET[:4]), min_size=64, max_size=400))
    pattern, rust = PATTERNS[name]
    assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, "rust" if rust else "oniguruma")


@pytest.mark.parametrize("name", BLOCK_PATTERNS)
def test_ascii_blocks_at_every_offset(name):
    pattern, rust = PATTERNS[name]
    base = BLOCK_TEXT * 2
    texts = [base[k:] for k in range(len(BLOCK_TEXT))]
    texts += [base[:k] + stop + base[k:] for k in range(1, 130)
              for stop in ("\u00e9", "\u00a0", "\u0663", "\u0482", "\u00d7", "\u0280", "\u0387", "\u064e")]
    for text in texts:
        assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, "rust" if rust else "oniguruma"), repr(text)


# Runs of three-byte letters (CJK ideographs, kana, Hangul syllables): the
# first and last letters of their ranges, the letters just outside them
# (U+9FC0, U+D7A3, U+3400, a four-byte ideograph), and the characters
# inside or next to the kana ranges that are no letters: gaps (U+3040,
# U+3097, U+D7A4), marks (U+3099), symbols (U+309B, U+4DFF), U+30A0 and
# U+30FB, and CJK punctuation, at every offset of a run.
CJK_LETTERS = ["\u4e00", "\u4fff", "\u5000", "\u8fff", "\u9000", "\u9fbf", "\u3041", "\u3096", "\u309d", "\u309f",
               "\u30a1", "\u30bf", "\u30c0", "\u30fa", "\u30fc", "\u30ff", "\uac00", "\ud77f", "\u65e5", "\u672c"]
CJK_OTHERS = ["\u9fc0", "\ud7a3", "\u3400", "\U00020000", "\u3040", "\u3097", "\u3099", "\u309b", "\u309c", "\u30a0",
              "\u30fb", "\u4dff", "\u3001", "\u3002", "\uff0c", "\ud7a4", "a", " ", "1", "'", "\n", "\u00e9", "\u0416"]
CJK_TEXT = "".join(CJK_LETTERS) * 3


@pytest.mark.parametrize("name", sorted(PATTERNS))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_random_three_byte_letter_runs(name, data):
    others = data.draw(st.lists(st.sampled_from(CJK_OTHERS), min_size=1, max_size=6, unique=True))
    text = data.draw(st.text(alphabet=st.sampled_from(CJK_LETTERS * 4 + others), min_size=1, max_size=200))
    pattern, rust = PATTERNS[name]
    assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, "rust" if rust else "oniguruma")


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_three_byte_letter_runs_stop_at_every_offset(name):
    pattern, rust = PATTERNS[name]
    texts = [CJK_TEXT[:n] for n in range(len(CJK_TEXT) + 1)]  # every end, near the text's end too
    texts += [CJK_TEXT[:k] + stop + CJK_TEXT[k:] for k in range(0, 12) for stop in CJK_OTHERS]
    for text in texts:
        assert spans(pattern, rust, text) == T.regex_find_all(pattern, text, "rust" if rust else "oniguruma"), repr(text)
