"""Plain and patched transformers tokenizers of the corpus folders, loaded
once per session, and the texts the tests feed them."""

import contextlib
import functools
import os
import warnings

import pytest

from corpus import CORPUS, file_path, text_files

# Every corpus folder AutoTokenizer loads (tokenizer.json, or llama2's
# tokenizer.model that transformers converts).
FOLDERS = ("bert-base-uncased", "gemma3", "gpt-4o-o200k-hf", "gpt2", "llama2", "llama3",
           "mistral-7b-v0.1", "qwen3", "t5-small", "xlm-roberta")
# The ones that load in about a second, for the tests that copy or reload.
SMALL = ("bert-base-uncased", "gpt2", "mistral-7b-v0.1", "t5-small", "llama2")


def folder(name) -> str:
    root = CORPUS / "tokenizers" / name
    if not root.is_dir():
        pytest.skip(f"corpus folder not found: {root}")
    if any(p.name.startswith("tokenizer.json") for p in root.iterdir()):
        return str(file_path("tokenizers", name, "tokenizer.json").parent)
    return str(root)


@contextlib.contextmanager
def unpatched():
    """Runs the block with transformers unpatched, then patches again."""
    import mtok.hf

    was = mtok.hf.is_patched()
    mtok.hf.unpatch_transformers()
    try:
        yield
    finally:
        if was:
            mtok.hf.patch_transformers()


def load_plain(path):
    from transformers import AutoTokenizer

    with unpatched():
        return AutoTokenizer.from_pretrained(path)


@functools.lru_cache(maxsize=None)
def pair(name):
    """(plain transformers tokenizer, the same loaded while patched); both
    get the eos token as pad token when they have none, so padding runs."""
    pytest.importorskip("transformers")
    import mtok.hf
    from transformers import AutoTokenizer

    path = folder(name)
    ref = load_plain(path)
    mtok.hf.patch_transformers()
    with warnings.catch_warnings():
        warnings.simplefilter("error", mtok.hf.FallbackWarning)
        ours = AutoTokenizer.from_pretrained(path)
    for tok in (ref, ours):
        if tok.pad_token is None:
            tok.pad_token = tok.eos_token or tok.unk_token or tok.convert_ids_to_tokens(0)
    return ref, ours


@functools.lru_cache(maxsize=None)
def texts():
    """Real multilingual text: two lines of each handbook language, and
    lines of the novels, fortunes, man pages, emoji files and code."""
    picked = []
    for name, text in text_files():
        lines = [line for line in text.splitlines() if len(line.strip()) > 20]
        step = max(1, len(lines) // 3)
        picked += lines[::step][:2]
    if not picked:
        pytest.skip(f"corpus text not found under {CORPUS / 'text'}")
    return tuple(picked)


def same_batch(a, b):
    """Two BatchEncodings hold the same keys and values (numpy aware)."""
    import numpy as np

    assert list(a.keys()) == list(b.keys())
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, np.ndarray):
            assert isinstance(y, np.ndarray) and x.dtype == y.dtype and np.array_equal(x, y), key
        else:
            assert x == y, key


def same_call(ref, ours, *args, **kwargs):
    """ref(*args, **kwargs) and ours(...) give the same BatchEncoding, or
    both raise."""
    try:
        expected = ref(*args, **kwargs)
    except Exception as e:  # HF's truncation errors are plain Exceptions
        with pytest.raises(Exception):
            ours(*args, **kwargs)
        return type(e)
    same_batch(expected, ours(*args, **kwargs))
    return None
