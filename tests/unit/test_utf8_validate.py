"""The core's UTF-8 check (common/utf8.cc) against Python's decoder: the
same verdict and, for bad input, the offset of the same first bad
sequence, on every sequence of up to two bytes, every lead byte with
continuations around the edges of Table 3-7, random mixed text, and long
inputs (the AVX2 pass) with every kind of error around its 32-byte blocks."""

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


# Inputs of 64 bytes and more take the AVX2 pass where the CPU has it: it
# stops at the 32-byte block of the first error and the scalar machine finds
# the offset from a character boundary before that block. So: errors at and
# around block edges, at the very end, several in one input, every kind.

BAD = [b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf",
       b"\xf0\x80\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf4\xbf\xbf\xbf", b"\xf5\x80\x80\x80",
       b"\xf7\xbf\xbf\xbf", b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xff", b"\x80", b"\xbf", b"\x80\x80\x80\x80",
       b"\xc3", b"\xe4\xb8", b"\xf0\x9f\x98", b"\xed\xa0", b"\xc3\xa9\xa9", b"\xe4\xb8\xad\x80",
       b"\xf0\x9f\x98\x80\x80", b"\xe4\xb8\xc3\xa9", b"\xf4\x8f\xbf\xbf\xbf"]
# Cut sequences for the last bytes of a buffer.
CUT = [b"\xc3", b"\xdf", b"\xe0", b"\xe0\xa0", b"\xe4\xb8", b"\xed\x9f", b"\xef\xbf", b"\xf0", b"\xf0\x90",
       b"\xf0\x9f\x98", b"\xf4\x8f\xbf", b"\xf3\xbf\xbf"]
# Characters of each length, the table's edges among them (U+D7FF, U+E000...).
EDGE_CHARS = "\x00\x7f\x80\u07ff\u0800\ud7ff\ue000\uffff\U00010000\U0010ffff"


def _char(rng: random.Random, ascii_share: float, most: int = 4) -> bytes:
    """One random character of at most `most` bytes, ASCII with odds ascii_share."""
    if most == 1 or rng.random() < ascii_share:
        return bytes([rng.randrange(0x80)])
    kind = rng.randrange(1, most) if most < 4 else rng.choice([1, 2, 2, 2, 3])  # mostly 3-byte (CJK)
    if rng.random() < 0.05:
        edges = [c for c in EDGE_CHARS if len(c.encode()) == kind + 1]
        return rng.choice(edges).encode()
    lo, hi = [(0x80, 0x800), (0x800, 0x10000), (0x10000, 0x110000)][kind - 1]
    cp = rng.randrange(lo, hi)
    while 0xD800 <= cp < 0xE000:
        cp = rng.randrange(lo, hi)
    return chr(cp).encode()


def _text(rng: random.Random, size: int, ascii_share: float = 0.2) -> bytes:
    """Valid UTF-8 of exactly `size` bytes, ending with a whole character."""
    out = bytearray()
    while len(out) < size:
        out += _char(rng, ascii_share, min(4, size - len(out)))
    assert len(out) == size
    return bytes(out)


SHARES = [0.0, 0.2, 0.9]  # all non-ASCII, mixed, mostly ASCII (whole ASCII blocks)


@pytest.mark.parametrize("share", SHARES)
def test_long_valid_text(share):
    rng = random.Random(11)
    for size in [64, 65, 95, 96, 97, 127, 128, 129, 200, 1000, 4096, 65537, 1 << 20]:
        data = _text(rng, size, share)
        assert T.utf8_validate(data) == -1, size


def test_every_cut_of_long_text():
    # Truncated sequences at the end, at every position modulo 32 and 64.
    rng = random.Random(12)
    for share in SHARES:
        data = _text(rng, 400, share) + "中\U0001F600é".encode()
        for n in range(60, len(data) + 1):
            cut = data[:n]
            assert T.utf8_validate(cut) == _want(cut), (share, n)


BLOCK_EDGES = sorted({e + d for e in (32, 64, 96, 128, 160, 192, 224, 256) for d in range(-5, 5)} | {0, 1, 2, 3})


@pytest.mark.parametrize("share", SHARES)
def test_bad_sequences_around_block_edges(share):
    rng = random.Random(13)
    for bad in BAD:
        for at in BLOCK_EDGES:
            for tail in (0, 1, 3, rng.randrange(4, 200)):
                data = _text(rng, at, share) + bad + _text(rng, tail, share)
                if len(data) < 64:
                    data += _text(rng, 64, share)
                want = _want(data)
                assert want == at + _want(bad), (bad, at)  # the error is in `bad`, nothing before it
                assert T.utf8_validate(data) == want, (bad, at, tail)


def test_cut_sequences_at_the_end():
    rng = random.Random(14)
    for cut in CUT:
        for n in [64, 65, 66, 67, 96, 128, 129, 130, 131, 1024, 4097]:
            for share in SHARES:
                data = _text(rng, n - len(cut), share) + cut
                assert T.utf8_validate(data) == _want(data) == n - len(cut), (cut, n, share)



def test_cut_sequences_before_ascii_blocks():
    # A whole-ASCII block is checked for the sequence the block before it left open only.
    rng = random.Random(19)
    for cut in CUT:
        for e in (32, 64, 96, 128, 160):
            for end in (e - 2, e - 1, e, e + 1):
                for share in (0.0, 0.2):
                    data = _text(rng, end - len(cut), share) + cut + b"x" * 70
                    assert T.utf8_validate(data) == _want(data) == end - len(cut), (cut, end, share)

@pytest.mark.parametrize("share", SHARES)
def test_every_byte_at_every_position(share):
    rng = random.Random(15)
    base = _text(rng, 200, share)
    for at in range(len(base)):
        for b in [0x41, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC3, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]:
            data = base[:at] + bytes([b]) + base[at + 1:]
            assert T.utf8_validate(data) == _want(data), (at, hex(b))


def test_first_of_several_errors():
    rng = random.Random(16)
    for _ in range(300):
        data = bytearray(_text(rng, rng.randrange(64, 600), rng.choice(SHARES)))
        for _ in range(rng.randrange(2, 5)):
            at = rng.randrange(len(data))
            data[at:at] = rng.choice(BAD)
        data = bytes(data)
        assert T.utf8_validate(data) == _want(data), data


def test_one_megabyte():
    rng = random.Random(17)
    data = _text(rng, 1 << 20, 0.1)
    assert T.utf8_validate(data) == -1
    for at in [0, 31, 32, 64, 65, 4095, 1 << 19, (1 << 20) - 64, (1 << 20) - 33, (1 << 20) - 4, (1 << 20) - 1]:
        for bad in [b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xc0\x80", b"\xe4\xb8"]:
            bad_data = data[:at] + bad + data[at + len(bad):]
            assert T.utf8_validate(bad_data) == _want(bad_data), (at, bad)
    for cut in CUT:
        n = len(data) - len(cut)
        while data[n] & 0xC0 == 0x80:  # back to a character's start
            n -= 1
        bad_data = data[:n] + cut
        assert T.utf8_validate(bad_data) == _want(bad_data) == n, cut


def test_random_long_text_with_corruption():
    rng = random.Random(18)
    for _ in range(2000):
        data = bytearray(_text(rng, rng.randrange(64, 3000), rng.choice(SHARES)))
        kind = rng.randrange(4)
        at = rng.randrange(len(data))
        if kind == 0:
            data[at] = rng.randrange(256)
        elif kind == 1:
            data[at:at] = rng.choice(BAD)
        elif kind == 2:
            del data[at:at + rng.randrange(1, 4)]  # may cut a character in two
        data = bytes(data)
        assert T.utf8_validate(data) == _want(data), data
