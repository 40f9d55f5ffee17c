"""Parity with HF tokenizers for every tokenizer.json in the corpus
(byte-level BPE, SentencePiece-style BPE, Unigram, WordPiece): ids with and
without special tokens, and decode with and without skipping them, over
every corpus line, paragraph and 4096-character chunk."""

import pytest

import corpus
import mtok
from harness import assert_same

tokenizers = pytest.importorskip("tokenizers")

NAMES = ["gpt2", "llama3", "qwen3", "gpt-4o-o200k-hf", "xlm-roberta", "t5-small", "gemma3",
         "mistral-7b-v0.1", "bert-base-uncased"]


@pytest.fixture(scope="module", params=NAMES)
def pair(request):
    path = corpus.file_path("tokenizers", request.param, "tokenizer.json")
    ref = tokenizers.Tokenizer.from_file(str(path))
    ours = mtok.Tokenizer.from_file(path)
    for t in (ref, ours):
        t.no_truncation()  # the file's own settings; tests/api/test_file_defaults.py covers them
        t.no_padding()
    return request.param, ref, ours


@pytest.mark.parametrize("add_special", [True, False])
def test_ids(pair, add_special):
    name, ref, ours = pair
    texts = list(corpus.parity_strings())
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=add_special)]
    actual = ours.encode_batch(texts, add_special_tokens=add_special)
    assert_same(f"{name} ids special={add_special}", texts, expected, actual)


@pytest.mark.parametrize("skip_special", [False, True])
def test_decode(pair, skip_special):
    name, ref, ours = pair
    texts = list(corpus.parity_strings())
    ids = [e.ids for e in ref.encode_batch(texts, add_special_tokens=True)]
    expected = ref.decode_batch(ids, skip_special_tokens=skip_special)
    actual = ours.decode_batch(ids, skip_special_tokens=skip_special)
    assert_same(f"{name} decode skip={skip_special}", texts, expected, actual)


def test_special_tokens_as_text(pair):
    """Every added token's text, alone and inside text, gives HF's ids."""
    name, ref, ours = pair
    contents = [t.content for t in ref.get_added_tokens_decoder().values()][:300]
    texts = contents + [f"a {c} b{c}c" for c in contents]
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=True)]
    assert_same(f"{name} added tokens", texts, expected, ours.encode_batch(texts, add_special_tokens=True))
