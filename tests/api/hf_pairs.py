"""Each corpus tokenizer.json loaded by HF tokenizers (the reference) and by
mtok, with a fixed sample of the corpus strings for the API tests."""

import functools
import random

import pytest

import corpus

NAMES = ["gpt2", "bert-base-uncased", "llama3", "qwen3", "gpt-4o-o200k-hf", "mistral-7b-v0.1",
         "xlm-roberta", "t5-small", "gemma3"]

EDGE_CASES = ["", " ", "Hello world", "  leading and trailing  ", "émoji 👋🏽 and ZWJ 👩‍👩‍👧",
              "a\u0301b\u0327", "ﬁ ½ Ⅻ ²", "x\r\n\u3000y", "\x1b[33mcolour\x1b[m", "tab\there",
              "Ünïcödé ÀÉÎ", "日本語のテキスト", "مرحبا بالعالم", "  ", "\n\n\n"]


@functools.lru_cache(maxsize=None)
def pair(name):
    """(HF tokenizer, mtok tokenizer) for a corpus tokenizer.json, with the
    file's own truncation and padding switched off on both."""
    return corpus.hf_pair(name)


@functools.lru_cache(maxsize=None)
def sample(n=200, max_chars=1500, seed=0):
    """A fixed random sample of corpus strings (cut to max_chars) plus edge cases."""
    strings = list(corpus.parity_strings())
    if not strings:
        pytest.skip("corpus text not found")
    rng = random.Random(seed)
    return tuple([s[:max_chars] for s in rng.sample(strings, min(n, len(strings)))] + EDGE_CASES)


FIELDS = ("ids", "tokens", "offsets", "type_ids", "attention_mask", "special_tokens_mask", "word_ids")


def fields(enc, with_overflowing=True):
    """The comparable fields of an HF or mtok Encoding, overflowing included."""
    out = {f: list(getattr(enc, f)) for f in FIELDS}
    if with_overflowing:
        out["overflowing"] = [fields(o) for o in enc.overflowing]
    return out


def assert_same_encoding(expected, actual, text):
    e, a = fields(expected), fields(actual)
    for f in e:
        assert a[f] == e[f], f"field {f} differs for input {text[:120]!r}"


def params_id(params):
    """A test id for a dict of keyword arguments."""
    return "-".join(f"{k}={v}" for k, v in params.items())


def reference_or_refusal(ref, tok, *args, **kwargs):
    """HF's encoding of args, or None when HF refuses them (a truncation
    strategy that cannot cut the input short enough; HF may even panic):
    then mtok must refuse them too."""
    try:
        return ref.encode(*args, **kwargs)
    except BaseException as e:
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
    import mtok

    with pytest.raises(mtok.EncodeError, match="Truncation error|stride"):
        tok.encode(*args, return_encoding=True, **kwargs)
    return None
