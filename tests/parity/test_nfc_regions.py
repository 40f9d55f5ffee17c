"""NFC on the ids path (normalizers/unicode_form.cc, common/unicode_norm.cc):
a segment is scanned for code points that NFC may change (not
is_nfc_safe), and only the code points around each one, from the safe code
point before it to the next safe one, are normalized; the rest is copied.
Qwen3's tokenizer.json (an NFC normalizer) against HF tokenizers, on texts
where such regions sit at the start, the end, next to each other, one safe
code point apart, after every width of UTF-8, and inside long clean text;
a wrong region boundary gives other ids (a composed and a decomposed
letter are different tokens)."""

import random

import pytest

import corpus
from harness import assert_same

# Code points NFC changes or may change with what is around them.
UNSAFE = [
    "e\u0301",  # a letter and a combining acute: composes
    "\u0301",  # a mark alone
    "A\u0308\u0304",  # two marks, the second composes with the first's result
    "a\u0302\u0323",  # marks out of canonical order: reordered, then composed
    "\u1100\u1161\u11a8",  # Hangul jamo L V T: one syllable
    "\uac00\u11a8",  # an LV syllable and a T jamo
    "\u0915\u093c",  # Devanagari ka + nukta (a composition exclusion)
    "\u0e01\u0e38\u0e48",  # Thai marks of two combining classes
    "\uf900",  # a CJK compatibility ideograph: a singleton decomposition
    "\u212b",  # the Angstrom sign: to U+00C5
    "\u0385",  # Greek dialytika tonos
    "\U0001d15e",  # a musical symbol (four bytes) that NFC decomposes
    "\u0344",  # a mark that decomposes into two
]
# Safe text of every UTF-8 width around them.
SAFE = ["", "a", "word ", "日本語", "Привет", "한국어", "é", "🙂", "  \n"]


def texts():
    out = []
    for u in UNSAFE:
        for before in SAFE:
            for after in SAFE:
                out += [before + u + after, before + u + u + after, before + u + "z" + u + after]
    # An unsafe code point at every offset of clean text of each width (the
    # scan skips ASCII 16 bytes at a time).
    for clean in ("abcdefgh", "日本語中文", "Привет", "aé日Я🙂"):
        run = clean * 40
        for k in range(0, 80):
            for u in ("e\u0301", "\u0301", "\uac00\u11a8", "\uf900"):
                out.append(run[:k] + u + run[:70])
    rng = random.Random(3)
    clean = "The quick brown fox 日本語のテキスト Привет мир 한국어 문장 " * 40
    for _ in range(300):
        parts = [clean[rng.randrange(len(clean)):][:rng.randrange(0, 200)]]
        for _ in range(rng.randrange(1, 6)):
            parts.append(rng.choice(UNSAFE))
            parts.append(rng.choice(SAFE) * rng.randrange(0, 3))
        out.append("".join(parts))
    return out


@pytest.fixture(scope="module")
def qwen3():
    return corpus.hf_pair("qwen3")


def test_regions_of_nfc_give_the_references_ids(qwen3):
    ref, ours = qwen3
    cases = texts()
    expected = [ref.encode(t, add_special_tokens=False).ids for t in cases]
    assert_same("qwen3 NFC regions", cases, expected, [ours.encode(t, add_special_tokens=False) for t in cases])
    assert_same("qwen3 NFC regions, batch", cases, expected,
                [list(ids) for ids in ours.encode_batch(cases, add_special_tokens=False)])
