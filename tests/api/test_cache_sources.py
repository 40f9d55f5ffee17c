"""The cache on the corpus's .model and .tiktoken files: the entry a first
load writes is the complete converted file, and the ids of a first, a
cached and an uncached load are the same."""

import pytest

import mtok
from corpus import parity_strings, require, settled_debug_info
from mtok.convert import to_mtok_bytes

SOURCES = [
    ("tokenizers", "llama2", "tokenizer.model"),
    ("tokenizers", "mistral", "tokenizer.model.v1"),
    ("tokenizers", "t5-small", "spiece.model"),
    ("tokenizers", "sentencepiece-test", "test_model.model"),
    ("tokenizers", "sentencepiece-test", "test_ja_model.model"),
    ("tiktoken", "r50k_base.tiktoken"),
    ("tiktoken", "p50k_base.tiktoken"),
    ("tiktoken", "cl100k_base.tiktoken"),
    ("tiktoken", "o200k_base.tiktoken"),
]


@pytest.mark.parametrize("parts", SOURCES, ids=lambda p: p[-1] if p[-2] == "tiktoken" else p[-2])
def test_first_cached_and_uncached_loads_agree(parts, tmp_path, monkeypatch):
    source = require(*parts)
    monkeypatch.setenv("MTOK_CACHE_DIR", str(tmp_path / "cache"))
    first = mtok.Tokenizer.from_file(source)
    entries = list((tmp_path / "cache").glob("*.mtok"))
    assert len(entries) == 1
    written = entries[0].read_bytes()
    # The entry is the whole file: what to_bytes() gives and what the converter writes.
    assert written == first.to_bytes() == to_mtok_bytes(str(source))
    cached = mtok.Tokenizer.from_file(source)
    uncached = mtok.Tokenizer.from_file(source, cache=False)
    assert cached.to_bytes() == written == uncached.to_bytes()
    texts = [t for t in parity_strings()[::97]][:300]
    want = [uncached.encode(t) for t in texts]
    assert [first.encode(t) for t in texts] == want
    assert [cached.encode(t) for t in texts] == want
    assert settled_debug_info(first) == settled_debug_info(cached) == settled_debug_info(uncached)
