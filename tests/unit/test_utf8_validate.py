"""The core's UTF-8 check (common/utf8.cc) against Python's decoder: the
same verdict and, for bad input, the offset of the same first bad
sequence, on every sequence of up to two bytes, every lead byte with
continuations around the edges of Table 3-7, and random mixed text."""

import itertools
import random

import pytest

from hooks_module import hooks

T = hooks()


def _want(data: bytes) -> int:
    try:
        data.decode("utf-8")
        return -1
    except UnicodeDecodeError as e:
        return e.start


def test_every_one_and_two_byte_sequence():
    for a in range(256):
        assert T.utf8_validate(bytes([a])) == _want(bytes([a])), a
        for b in range(256):
            data = bytes([a, b])
            assert T.utf8_validate(data) == _want(data), data


EDGES = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
         0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]


@pytest.mark.parametrize("length", [3, 4])
def test_sequences_around_the_table_edges(length):
    for combo in itertools.product(EDGES, repeat=length):
        data = bytes(combo)
        assert T.utf8_validate(data) == _want(data), data


def test_random_text_with_ascii_runs():
    rng = random.Random(7)
    pieces = ["a" * 9, "hello ", "é", "中文", "\U0001F600", "\u2581", "x"]
    for _ in range(3000):
        s = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12))).encode()
        assert T.utf8_validate(s) == -1
        if s:
            at = rng.randrange(len(s))
            bad = s[:at] + bytes([rng.choice([0x80, 0xC0, 0xED, 0xF5, 0xFF, 0xE2])]) + s[at + 1:]
            assert T.utf8_validate(bad) == _want(bad), bad
            cut = s[:rng.randrange(len(s) + 1)]
            assert T.utf8_validate(cut) == _want(cut), cut
