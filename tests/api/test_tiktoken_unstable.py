"""mtok.tiktoken's encode_with_unstable against tiktoken's on prefixes of
corpus text: the same stable tokens and the same set of completions."""

import random

import pytest

import mtok.tiktoken as mtiktoken
from api.test_tiktoken_api import reference, texts

tiktoken = pytest.importorskip("tiktoken")

EDGES = ["", "hello fanta", "hello world\n\n", "foo\n \n", "abc  ", "x\u00e9", "a\u3000", "日本語のテ",
         "def f(x):\n    ", "end<|endoftext|>", "12345", "emoji 👋🏽", "it's"]


def prefixes(n=14, seed=3):
    """Corpus strings cut at a random character, up to 120 characters."""
    rng = random.Random(seed)
    out = []
    for text in texts(n):
        start = rng.randrange(max(1, len(text) - 120))
        out.append(text[start:start + rng.randrange(1, 121)])
    return out + EDGES


def assert_same_unstable(ref, enc, text, **kwargs):
    stable, completions = ref.encode_with_unstable(text, **kwargs)
    ours, our_completions = enc.encode_with_unstable(text, **kwargs)
    assert ours == stable, f"stable tokens differ for {text!r}"
    expected = {tuple(c) for c in completions}
    got = [tuple(c) for c in our_completions]
    assert len(got) == len(set(got)), f"repeated completions for {text!r}"
    differ = expected.symmetric_difference(got)
    assert not differ, (f"{len(differ)} completions differ for {text!r} ({len(expected)} expected, "
                        f"{len(got)} got), e.g. {sorted(differ)[:3]}")


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base"])
def test_unstable_matches_tiktoken(name):
    ref, enc = reference(name), mtiktoken.get_encoding(name)
    for text in prefixes():
        assert_same_unstable(ref, enc, text, allowed_special="all")


def test_special_token_arguments():
    ref, enc = reference("cl100k_base"), mtiktoken.get_encoding("cl100k_base")
    text = "a <|endoftext|> b"
    assert_same_unstable(ref, enc, text, disallowed_special=())
    assert_same_unstable(ref, enc, text, allowed_special={"<|endoftext|>"})
    assert_same_unstable(ref, enc, text + "<|endoftext|>", allowed_special="all")
    for e in (ref, enc):
        with pytest.raises(ValueError, match="disallowed special token"):
            e.encode_with_unstable(text)
