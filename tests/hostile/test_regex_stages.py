"""Regex stages on hostile patterns and inputs: a pattern that backtracks
exponentially ends quickly with mtok.EncodeError (the backtracking budget,
docs/hostile_input.md), while linear-time patterns never meet the budget on
long inputs."""

import json
import time

import pytest

import mtok
from hooks_module import hooks

native = hooks()

CATASTROPHIC = r"(a+)+b"  # 2^n paths on n `a`s without a `b`


def spec(pre_tokenizer=None, normalizer=None, added="<s>", decoder=None):
    """A tiny BPE tokenizer.json with the given stages."""
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": 2, "content": added, "single_word": False, "lstrip": False,
                          "rstrip": False, "normalized": added != "<s>", "special": True}],
        "normalizer": normalizer, "pre_tokenizer": pre_tokenizer, "post_processor": None,
        "decoder": decoder,
        "model": {"type": "BPE", "dropout": None, "unk_token": "[UNK]",
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": {"a": 0, "[UNK]": 1, "<s>": 2, "b": 3, " ": 4, "a" * 40: 5, "ab": 6}, "merges": []},
    }


def load(tmp_path, **stages):
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec(**stages)))
    return mtok.Tokenizer.from_file(path)


def split(pattern):
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False}


def assert_budget_error(fn):
    # CPU time, not wall time: the limit is on mtok's work, which a loaded
    # machine does not change (the matcher runs on this thread).
    start = time.process_time()
    with pytest.raises(mtok.EncodeError, match="backtracking budget"):
        fn()
    assert time.process_time() - start < 1.0


@pytest.mark.parametrize("n", [40, 1000, 100_000])
def test_catastrophic_regex_raises_quickly(n):
    assert_budget_error(lambda: native.regex_find_all(CATASTROPHIC, "a" * n))


def test_catastrophic_split_pre_tokenizer(tmp_path):
    tok = load(tmp_path, pre_tokenizer=split(CATASTROPHIC))
    assert tok.encode("aab ab") == [0, 0, 3, 4, 0, 3]  # matches normally elsewhere
    assert_budget_error(lambda: tok.encode("a" * 40))
    assert_budget_error(lambda: tok.encode_batch(["ab", "a" * 40]))
    assert tok.encode("ab") == [0, 3]  # the tokenizer is still usable


def test_catastrophic_replace_normalizer(tmp_path):
    normalizer = {"type": "Replace", "pattern": {"Regex": CATASTROPHIC}, "content": "b"}
    tok = load(tmp_path, normalizer=normalizer)
    assert tok.encode("aab") == [3]
    assert_budget_error(lambda: tok.encode("a" * 40))


def test_catastrophic_normalizer_on_an_added_token(tmp_path):
    # Normalized added tokens are normalized while loading: a FormatError.
    normalizer = {"type": "Replace", "pattern": {"Regex": CATASTROPHIC}, "content": "b"}
    start = time.process_time()
    with pytest.raises(mtok.FormatError, match="added tokens: regex: .*backtracking budget"):
        load(tmp_path, normalizer=normalizer, added="a" * 40)
    assert time.process_time() - start < 1.0


def test_catastrophic_replace_decoder_leaves_the_token(tmp_path):
    # Decode cannot fail: the token the pattern backtracks too long on stays.
    decoder = {"type": "Replace", "pattern": {"Regex": CATASTROPHIC}, "content": "x"}
    tok = load(tmp_path, decoder=decoder)
    start = time.process_time()
    assert tok.decode([6, 5, 6]) == "x" + "a" * 40 + "x"
    assert time.process_time() - start < 1.0


def test_linear_pattern_scales_past_the_base_budget():
    # One failed alternative per byte: 12 million resumptions in one attempt,
    # beyond the 10 million base, fine because the budget grows per byte.
    text = " " * 12_000_000 + "y"
    assert native.regex_find_all(r"(?:x|\s)*y", text) == [(0, len(text))]


def test_whitespace_pre_tokenizer_around_added_tokens(tmp_path):
    # Regression: the matches of one piece leaked into the next, so a piece
    # after an added token was cut at offsets past its end (IndexError).
    tok = load(tmp_path, pre_tokenizer={"type": "Whitespace"})
    assert tok.encode("aaaa b<s>a b") == [0, 0, 0, 0, 3, 2, 0, 3]
    assert tok.encode("aaaa bbbb<s>a") == [0, 0, 0, 0, 3, 3, 3, 3, 2, 0]
