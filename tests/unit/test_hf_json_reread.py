"""_native.hf_json_reread: a float as HF tokenizers holds it after writing
it into its JSON text and reading it back (what its copies and pickles do)."""

import json
import random
import struct

import pytest

from mtok import _native


def _hf_reread(values):
    """HF tokenizers itself: a Unigram model with these scores, through
    to_str and from_str."""
    tokenizers = pytest.importorskip("tokenizers")
    vocab = [("<unk>", 0.0)] + [(f"p{i}", v) for i, v in enumerate(values)]
    tok = tokenizers.Tokenizer(tokenizers.models.Unigram(vocab, 0, False))
    back = json.loads(tokenizers.Tokenizer.from_str(tok.to_str()).to_str())
    return [score for _, score in back["model"]["vocab"][1:]]


def test_matches_hf_on_doubles_of_every_magnitude():
    rng = random.Random(7)
    bits = (struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0] for _ in range(6000))
    values = [v for v in bits if v == v and abs(v) != float("inf")]
    values += [rng.uniform(-30.0, 0.0) for _ in range(6000)]
    # the layouts' borders: fixed against scientific, and digits past 2**53
    values += [0.0, -0.0, 1e15, 1e16, 1e17, 123456789012345678.0, 9007199254740993.0, 1e-4, 1e-5,
               1.5e-5, 0.000123456789012345, 1e22, 1e23, 5e-324, 1.7976931348623157e308]
    got = _native.hf_json_reread(values)
    assert got == _hf_reread(values)
    assert got != values  # some do move: the comparison is not vacuous


def test_values_that_reread_the_same_are_kept():
    values = [-2.0, -10.5, 0.25, -13.590115547180176, -2.012292861938477]
    assert _native.hf_json_reread(values) == values
    assert _native.hf_json_reread([-2.0122928619384766]) == [-2.012292861938477]
