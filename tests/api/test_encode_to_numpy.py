"""Tokenizer.encode_to_numpy and mtok.tiktoken's Encoding.encode_to_numpy:
the ids of encode(), as 1-D uint32 arrays that own their memory, under
every input encode() takes (and with the same errors)."""

import numpy as np
import pytest

import mtok
from hf_pairs import EDGE_CASES, NAMES, pair, sample


def check_array(a, ids):
    assert isinstance(a, np.ndarray)
    assert a.dtype == np.uint32 and a.ndim == 1
    assert a.flags.owndata and a.flags.writeable and a.flags.c_contiguous
    assert a.tolist() == ids


@pytest.mark.parametrize("name", NAMES)
def test_equals_encode_and_reference(name):
    ref, tok = pair(name)
    for text in sample(60):
        for add in (True, False):
            ids = tok.encode(text, add_special_tokens=add)
            check_array(tok.encode_to_numpy(text, add_special_tokens=add), ids)
        assert tok.encode_to_numpy(text, False).tolist() == ref.encode(text, add_special_tokens=False).ids


def builtin():
    """The built-in o200k_base tokenizer (no corpus needed)."""
    return mtok.get_encoding("o200k_base")._tokenizer


@pytest.mark.parametrize("text", EDGE_CASES + ["a" * 70_000, "日本語 " * 40_000])
def test_builtin_inputs(text):
    tok = builtin()
    check_array(tok.encode_to_numpy(text), tok.encode(text))
    check_array(tok.encode_to_numpy(text.encode("utf-8")), tok.encode(text))


def test_long_text_on_threads_matches_one_thread():
    tok = builtin()
    text = "Ein langer Satz, der sich wiederholt. 長い文章です。\n" * 8000  # past the split threshold
    one = tok.encode_to_numpy(text, num_threads=1)
    check_array(tok.encode_to_numpy(text, num_threads=2), one.tolist())
    assert one.tolist() == tok.encode(text, num_threads=1)


def test_arrays_are_independent():
    tok = builtin()
    a = tok.encode_to_numpy("first text")
    b = tok.encode_to_numpy("a second, longer text")  # reuses the native scratch
    assert a.tolist() == tok.encode("first text")
    a[0] = 7  # writable, and owned: b is untouched
    assert b.tolist() == tok.encode("a second, longer text")


def test_lone_surrogates_and_bad_bytes_as_encode():
    tok = builtin()
    check_array(tok.encode_to_numpy("a\ud800b"), tok.encode("a\ud800b"))
    with pytest.raises(mtok.EncodeError):
        tok.encode_to_numpy(b"\xff\xfe")
    with pytest.raises(TypeError):
        tok.encode_to_numpy(12)


def test_truncation_applies():
    tok = mtok.Tokenizer.from_bytes(builtin().to_bytes())
    text = "one two three four five six seven"
    tok.enable_truncation(3)
    check_array(tok.encode_to_numpy(text), tok.encode(text))
    assert len(tok.encode_to_numpy(text)) == 3


def test_tiktoken_encode_to_numpy():
    enc = mtok.get_encoding("o200k_base")
    text = "hello <|endoftext|> world, ünïcode 你好"
    check_array(enc.encode_to_numpy(text, allowed_special="all"), enc.encode(text, allowed_special="all"))
    check_array(enc.encode_to_numpy(text, disallowed_special=()), enc.encode(text, disallowed_special=()))
    with pytest.raises(ValueError):
        enc.encode_to_numpy(text)  # special-token text is disallowed by default, as in encode()
    check_array(enc.encode_to_numpy("x\udc00y"), enc.encode("x\udc00y"))


def test_tiktoken_reference():
    tiktoken = pytest.importorskip("tiktoken")
    import corpus

    path = corpus.file_path("tiktoken", "o200k_base.tiktoken")  # skips without the corpus
    from tiktoken.load import load_tiktoken_bpe

    from mtok.convert.openai_encodings import ENCODING_SPECS

    base, _, pattern, specials, n_vocab = ENCODING_SPECS["o200k_base"]
    ref = tiktoken.Encoding("o200k_base", pat_str=pattern, mergeable_ranks=load_tiktoken_bpe(str(path)),
                            special_tokens=specials, explicit_n_vocab=n_vocab)
    enc = mtok.get_encoding("o200k_base")
    for text in sample(40):
        got, want = enc.encode_to_numpy(text), ref.encode_to_numpy(text)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
