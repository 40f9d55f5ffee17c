"""common/unicode_norm first_nfc_unsafe: where NFC may first change a text.

It skips 32-byte blocks of bytes whose code points are all NFC-safe (AVX2)
and reads the rest code point by code point; the offset must be the one a
plain scan gives, for valid and malformed UTF-8, wherever the block edges
fall. The model below is that scan, from is_nfc_safe alone.
"""
import random

import pytest
from hooks_module import hooks

T = hooks()
_SAFE = {}


def safe(cp):
    if cp not in _SAFE:
        _SAFE[cp] = T.is_nfc_safe(cp)
    return _SAFE[cp]


def decode(b, i):
    """utf8::decode: (code point, length); malformed or truncated: U+FFFD, 1."""
    c = b[i]
    if c < 0x80:
        return c, 1
    n = 4 if 0xF0 <= c <= 0xF7 else 3 if c >> 4 == 0xE else 2 if c >> 5 == 6 else 1
    if n == 1 or i + n > len(b) or any(b[i + k] & 0xC0 != 0x80 for k in range(1, n)):
        return 0xFFFD, 1
    cp = c & (0x7F >> n)
    for k in range(1, n):
        cp = cp << 6 | (b[i + k] & 0x3F)
    return cp, n


def model(b, i=0):
    while i < len(b):
        cp, n = decode(b, i)
        if not safe(cp):
            return i
        i += n
    return len(b)


# Code points of each kind the blocks meet: safe ones of every lead the
# blocks skip or stop at, and unsafe ones (combining marks, kana voicing
# marks, compatibility ideographs, Hangul jamo, singletons).
SAFE_TEXT = "abc Ωé日本語한국어Приветΐ กข ℃ かカ🙂\n"
UNSAFE = ["\u0301", "\u3099", "\uf900", "\u1161", "\u212b", "\u0958", "\u05b0", "\U0001d15e"]
UNSAFE_BYTES = {u.encode() for u in UNSAFE}


def test_every_lead_byte_alone_and_in_blocks():
    for cp in list(range(0x80, 0x800, 7)) + list(range(0x800, 0x10000, 61)) + [0x10000, 0x1D15E, 0x10FFFF]:
        if 0xD800 <= cp < 0xE000:
            continue
        ch = chr(cp).encode()
        for before in (0, 1, 31, 32, 33, 63):
            text = b"x" * before + ch + b"y" * 40
            assert T.first_nfc_unsafe(text, 0) == model(text), (hex(cp), before)


@pytest.mark.parametrize("seed", range(6))
def test_random_text_against_the_scan(seed):
    rng = random.Random(seed)
    pieces = [c.encode() for c in SAFE_TEXT] + sorted(UNSAFE_BYTES)
    for _ in range(300):
        parts = [rng.choice(pieces) for _ in range(rng.randrange(1, 120))]
        # Mostly safe text, an unsafe code point here and there.
        text = b"".join(p for p in parts if p not in UNSAFE_BYTES or rng.random() < 0.05)
        for start in {0, rng.randrange(0, len(text) + 1)}:
            while start < len(text) and text[start] & 0xC0 == 0x80:
                start += 1  # a code point's start, as callers pass
            assert T.first_nfc_unsafe(text, start) == model(text, start)


@pytest.mark.parametrize("seed", range(4))
def test_malformed_utf8_against_the_scan(seed):
    rng = random.Random(100 + seed)
    base = ("日本語の文章とПривет " * 8).encode()
    for _ in range(400):
        b = bytearray(base)
        for _ in range(rng.randrange(1, 4)):
            b[rng.randrange(len(b))] = rng.choice([0x80, 0xBF, 0xC0, 0xC1, 0xC3, 0xCC, 0xE3, 0xE4, 0xED, 0xEF,
                                                   0xF0, 0xF4, 0xF5, 0xFF, 0x41])
        cut = bytes(b[: rng.randrange(len(b) + 1)])
        assert T.first_nfc_unsafe(cut, 0) == model(cut)


def test_unsafe_at_every_offset_of_long_text():
    body = ("漢字かな交じり文 Кириллица ελληνικά ".encode())
    for mark in UNSAFE:
        m = mark.encode()
        for at in range(0, 96):
            text = body * 3
            cut = at
            while cut < len(text) and text[cut] & 0xC0 == 0x80:
                cut += 1
            text = text[:cut] + m + text[cut:]
            assert T.first_nfc_unsafe(text, 0) == model(text) == cut, (mark, at)


def test_from_at_or_past_the_end_finds_nothing():
    for text in (b"", b"abc", "日本語".encode() * 20, b"x" * 40 + "\u0301".encode()):
        assert T.first_nfc_unsafe(text, len(text)) == len(text)
        assert T.first_nfc_unsafe(text, len(text) + 40) == len(text)  # read nothing past it
    # From inside: only what follows counts.
    text = "\u0301".encode() + "日本語".encode() * 20
    assert T.first_nfc_unsafe(text, 0) == 0 and T.first_nfc_unsafe(text, 2) == len(text)
