"""BitCount (common/bit_count.h), the trie steps' and folded characters'
bit count, against Python's int.bit_count on edge words and random ones."""

import random

from hooks_module import hooks


def test_bit_count_matches_python():
    rng = random.Random(5)
    words = [0, 1, 2**63, 2**64 - 1, 0x5555555555555555, 0xAAAAAAAAAAAAAAAA, 0x0F0F0F0F0F0F0F0F]
    words += [1 << k for k in range(64)] + [(1 << k) - 1 for k in range(65)]
    words += [rng.getrandbits(64) for _ in range(5000)]
    words += [rng.getrandbits(64) & rng.getrandbits(64) & rng.getrandbits(64) for _ in range(2000)]
    bit_count = hooks().bit_count
    wrong = [(hex(w), bit_count(w), w.bit_count()) for w in words if bit_count(w) != w.bit_count()]
    assert not wrong, wrong[:5]
