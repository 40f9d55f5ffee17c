"""mtok.tiktoken's batch decoding: tiktoken's results and errors, from one
native call (the GIL released once) rather than a Python loop per row."""

import random

import pytest

import mtok.tiktoken as mtiktoken
from api.test_tiktoken_api import reference, texts

tiktoken = pytest.importorskip("tiktoken")


def id_lists(ref):
    rng = random.Random(5)
    rows = [ref.encode(t, disallowed_special=()) for t in texts(120)]
    rows += [[ref.eot_token, 100, 200], []]
    rows += [[rng.randrange(256) for _ in range(rng.randrange(1, 6))] for _ in range(60)]  # broken UTF-8
    return rows


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_harmony"])
def test_batch_decoding_matches(name):
    ref, enc = reference(name), mtiktoken.get_encoding(name)
    rows = id_lists(ref)
    assert enc.decode_bytes_batch(rows) == ref.decode_bytes_batch(rows)
    for errors in ("replace", "ignore", "surrogateescape", "backslashreplace"):
        assert enc.decode_batch(rows, errors=errors, num_threads=2) == ref.decode_batch(rows, errors=errors)
    with pytest.raises(UnicodeDecodeError):
        enc.decode_batch(rows, errors="strict")


def test_batch_is_one_native_call(monkeypatch):
    enc = mtiktoken.get_encoding("cl100k_base")
    rows = [enc.encode("hello world"), enc.encode("goodbye")]
    monkeypatch.setattr(type(enc), "decode_bytes", lambda *a, **k: pytest.fail("per-row Python decode"))
    assert enc.decode_batch(rows) == ["hello world", "goodbye"]
    assert enc.decode_bytes_batch(rows, num_threads=1) == [b"hello world", b"goodbye"]


def test_unknown_id_raises_key_error():
    enc = mtiktoken.get_encoding("cl100k_base")
    with pytest.raises(KeyError):
        enc.decode_batch([[1, 2], [10**7]])
