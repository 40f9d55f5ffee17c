"""Parity with tiktoken for the OpenAI encodings built into mtok."""

import pytest

import corpus
import mtok
from harness import assert_same

tiktoken = pytest.importorskip("tiktoken")
from tiktoken.load import load_tiktoken_bpe  # noqa: E402

from mtok.convert.openai_encodings import ENCODING_SPECS  # noqa: E402

NAMES = ["r50k_base", "cl100k_base", "o200k_base"]


def reference(name):
    """tiktoken's Encoding built from the corpus rank file (no download)."""
    base, _, pattern, specials, n_vocab = ENCODING_SPECS[name]
    path = corpus.require("tiktoken", base + ".tiktoken")
    ranks = load_tiktoken_bpe(str(path))
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials,
                             explicit_n_vocab=n_vocab)


@pytest.fixture(scope="module", params=NAMES)
def pair(request):
    return request.param, reference(request.param), mtok.get_encoding(request.param)


def test_encode_ordinary(pair):
    name, ref, ours = pair
    texts = list(corpus.parity_strings())
    expected = ref.encode_ordinary_batch(texts)
    actual = [ours.encode_ordinary(t) for t in texts]
    assert_same(f"tiktoken {name} encode_ordinary", texts, expected, actual)


def test_encode_allowed_all(pair):
    name, ref, ours = pair
    specials = sorted(ref.special_tokens_set)
    texts = list(corpus.parity_strings()[:2000]) + [f"x{s}y {s}" for s in specials]
    expected = [ref.encode(t, allowed_special="all") for t in texts]
    actual = [ours.encode(t, allowed_special="all") for t in texts]
    assert_same(f"tiktoken {name} encode all", texts, expected, actual)


def test_disallowed_special_raises(pair):
    name, ref, ours = pair
    with pytest.raises(ValueError):
        ref.encode("hi <|endoftext|>")
    with pytest.raises(ValueError):
        ours.encode("hi <|endoftext|>")


def test_decode(pair):
    name, ref, ours = pair
    texts = list(corpus.parity_strings()[:5000])
    ids = ref.encode_ordinary_batch(texts)
    assert_same(f"tiktoken {name} decode", texts, [ref.decode(i) for i in ids], [ours.decode(i) for i in ids])
    assert_same(f"tiktoken {name} decode_bytes", texts, [ref.decode_bytes(i) for i in ids],
                [ours.decode_bytes(i) for i in ids])
