"""common/unicode tables (Unicode 16.0) against what the reference regex
engines do: HF tokenizers 0.23.3 (Oniguruma) and tiktoken 0.14.0
(fancy-regex), over every scalar value."""

import unicodedata
from pathlib import Path

import pytest
import tiktoken
from tokenizers import Regex as HfRegex
from tokenizers import pre_tokenizers

from hooks_module import hooks

native = hooks()

REPO = Path(__file__).resolve().parents[2]
SCALARS = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]
ALL_TEXT = "".join(map(chr, SCALARS))
NAMES = native.category_names()
CATEGORY = native.category_bytes()
WHITE_SPACE = {*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028,
               0x2029, 0x202F, 0x205F, 0x3000}


def hf_members(pattern, text=ALL_TEXT):
    """Code points of `text` that a one-character pattern matches in HF."""
    split = pre_tokenizers.Split(HfRegex(pattern), "removed", invert=True)
    return {ord(c) for piece, _ in split.pre_tokenize_str(text) for c in piece}


def tiktoken_members(pattern, text=ALL_TEXT):
    """The same through tiktoken, which drops text its pattern does not match."""
    enc = tiktoken.Encoding(name="t", pat_str=pattern,
                            mergeable_ranks={bytes([i]): i for i in range(256)}, special_tokens={})
    out = set()
    for i in range(0, len(text), 1 << 16):
        out |= {ord(c) for c in enc.decode_bytes(enc.encode_ordinary(text[i:i + (1 << 16)])).decode()}
    return out


def ours(predicate):
    return {cp for cp in SCALARS if predicate(cp)}


def test_version_and_generated_header():
    assert native.unicode_version() == "16.0.0"
    head = (REPO / "cpp/src/common/unicode_tables.inc").read_text().splitlines()[:3]
    assert "tools/gen_unicode_tables.py" in head[0] and "Unicode 16.0.0" in head[0]


def test_characters_from_recent_versions():
    assert native.category(0x11F04) == "Lo"   # Kawi, 15.0
    assert native.category(0x1E4D0) == "Lo"   # Nag Mundari, 15.0
    assert native.category(0x2EBF0) == "Lo"   # CJK Extension I, 15.1
    assert native.category(0x1C89) == "Lu"    # Cyrillic TJE, 16.0
    assert native.category(0x10D50) == "Lu" and native.category(0x10D70) == "Ll"  # Garay, 16.0
    assert native.category(0x088F) == "Cn"    # 17.0: not yet, as in both references
    assert native.category(0x0C5C) == "Cn"
    assert native.category(0x110000) == "Cn"


@pytest.mark.parametrize("engine", ["hf", "tiktoken"])
@pytest.mark.parametrize("name", [n for n in NAMES if n != "Cs"])
def test_general_category_matches_reference(engine, name):
    members = hf_members if engine == "hf" else tiktoken_members
    code = NAMES.index(name)
    assert members(r"\p{%s}" % name) == ours(lambda cp: CATEGORY[cp] == code)


@pytest.mark.parametrize("engine", ["hf", "tiktoken"])
def test_white_space_and_digits_match_reference(engine):
    members = hf_members if engine == "hf" else tiktoken_members
    assert members(r"\s") == WHITE_SPACE
    assert members(r"\d") == ours(lambda cp: NAMES[CATEGORY[cp]] == "Nd")


def test_white_space():
    assert ours(native.is_white_space) == WHITE_SPACE
    assert native.is_white_space(0x85)
    assert not any(native.is_white_space(cp) for cp in (0x1C, 0x1D, 0x1E, 0x1F, 0x180E, 0x200B))


def test_word_matches_reference():
    word = ours(native.is_word)
    assert hf_members(r"[\w]") == word
    assert tiktoken_members(r"[\w]") == word | {0x200C, 0x200D}  # plus Join_Control


def orbits():
    """Classes of code points with the same simple folding, from our table."""
    by_target = {}
    for cp in SCALARS:
        by_target.setdefault(native.simple_fold(cp), set()).add(cp)
    return [o for o in by_target.values() if len(o) > 1]


def test_case_folding_matches_reference():
    classes = orbits()
    members = sorted(cp for o in classes for cp in o)
    # One candidate per position, apart, so Oniguruma's "ss" ~ "ß" cannot fire.
    text = "\x00".join(map(chr, members))
    enc_ranks = {bytes([i]): i for i in range(256)}
    for orbit in classes:
        cp = min(orbit)
        pattern = r"(?i)\x{%X}" % cp
        assert hf_members(pattern, text) == orbit, hex(cp)
        enc = tiktoken.Encoding(name="t", pat_str=pattern, mergeable_ranks=enc_ranks, special_tokens={})
        assert {ord(c) for c in enc.decode_bytes(enc.encode_ordinary(text)).decode()} == orbit, hex(cp)


def test_case_folding_matches_cpython_for_unicode_14():
    if unicodedata.unidata_version != "14.0.0":
        pytest.skip("compares with CPython 3.11's Unicode 14 casefold()")
    added_in_15_1 = {0x1FD3: 0x0390, 0x1FE3: 0x03B0, 0xFB05: 0xFB06}
    for cp in SCALARS:
        if unicodedata.category(chr(cp)) == "Cn":
            continue
        full = chr(cp).casefold()
        if len(full) == 1:
            want = ord(full)
        else:
            lower = chr(cp).lower()  # status S is the lowercase (U+1E9E -> U+00DF)
            want = added_in_15_1.get(cp, ord(lower) if len(lower) == 1 else cp)
            assert native.full_fold_multi(cp) == [ord(c) for c in full], hex(cp)
        assert native.simple_fold(cp) == want, hex(cp)


def test_simple_fold_examples():
    assert native.simple_fold(ord("K")) == ord("k")
    assert native.simple_fold(0x212A) == ord("k")     # KELVIN SIGN
    assert native.simple_fold(0x017F) == ord("s")     # LONG S
    assert native.simple_fold(0x1E9E) == 0xDF         # CAPITAL SHARP S
    assert native.simple_fold(0x13A0) == 0x13A0 and native.simple_fold(0xAB70) == 0x13A0  # Cherokee
    assert native.simple_fold(0x10D50) == 0x10D70     # Garay, 16.0
    assert native.simple_fold(0x0130) == 0x0130       # no C/S folding
    assert native.full_fold_multi(0xDF) == [ord("s"), ord("s")]
    assert native.full_fold_multi(0x0390) == [0x03B9, 0x0308, 0x0301]
    assert native.full_fold_multi(ord("a")) == []
