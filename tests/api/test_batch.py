"""Batch encode and decode agree with per-row calls; numpy outputs agree
with the lists they stand for."""

import numpy as np
import pytest

from hf_pairs import NAMES, pair, sample


@pytest.mark.parametrize("name", NAMES)
def test_encode_batch_equals_rows(name):
    _, tok = pair(name)
    texts = list(sample(80))
    assert tok.encode_batch(texts) == [tok.encode(t) for t in texts]
    assert tok.encode_batch(texts, False, num_threads=3) == [tok.encode(t, add_special_tokens=False) for t in texts]
    pairs = list(zip(texts[:20], texts[20:40]))
    assert tok.encode_batch(pairs) == [tok.encode(a, b) for a, b in pairs]
    encodings = tok.encode_batch(texts[:20], return_encoding=True)
    for e, t in zip(encodings, texts[:20]):
        assert e.offsets == tok.encode(t, return_encoding=True).offsets


@pytest.mark.parametrize("name", NAMES)
def test_decode_batch_equals_rows(name):
    ref, tok = pair(name)
    ids = tok.encode_batch(list(sample(60)))
    for skip in (False, True):
        assert tok.decode_batch(ids, skip) == [tok.decode(i, skip) for i in ids]
        assert tok.decode_batch(ids, skip) == ref.decode_batch(ids, skip_special_tokens=skip)


@pytest.mark.parametrize("name", ["gpt2", "bert-base-uncased", "llama3"])
def test_numpy_ragged(name):
    _, tok = pair(name)
    texts = list(sample(50))
    ids, splits = tok.encode_batch_to_numpy(texts)
    assert ids.dtype == np.uint32 and splits.dtype == np.int64
    assert len(splits) == len(texts) + 1
    rows = tok.encode_batch(texts)
    assert [ids[splits[i]:splits[i + 1]].tolist() for i in range(len(texts))] == rows


@pytest.mark.parametrize("name", ["gpt2", "bert-base-uncased", "llama3"])
def test_numpy_padded(name):
    _, tok = pair(name)
    texts = list(sample(50))
    rows = tok.encode_batch(texts)
    ids, mask = tok.encode_batch_to_numpy(texts, padding=True)
    width = max(len(r) for r in rows)
    assert ids.shape == mask.shape == (len(texts), width)
    assert ids.dtype == mask.dtype == np.uint32
    for row, r, m in zip(rows, ids, mask):
        assert r[:len(row)].tolist() == row and (r[len(row):] == 0).all()
        assert m.tolist() == [1] * len(row) + [0] * (width - len(row))


def test_numpy_follows_enabled_padding():
    ref, tok = pair("bert-base-uncased")
    texts = list(sample(30, max_chars=200))
    tok.enable_padding(direction="left", pad_id=7, pad_to_multiple_of=16)
    ref.enable_padding(direction="left", pad_id=7, pad_to_multiple_of=16)
    try:
        ids, mask = tok.encode_batch_to_numpy(texts)
        expected = ref.encode_batch(texts)
        assert ids.tolist() == [e.ids for e in expected]
        assert mask.tolist() == [e.attention_mask for e in expected]
        ragged, splits = tok.encode_batch_to_numpy(texts, padding=False)
        assert splits[-1] == len(ragged)
    finally:
        tok.no_padding()
        ref.no_padding()


def test_batch_texts_may_be_bytes_and_surrogates():
    _, tok = pair("gpt2")
    assert tok.encode_batch([b"caf\xc3\xa9", "caf\u00e9"]) == [tok.encode("café")] * 2
    assert tok.encode_batch(["a\ud800b"]) == [tok.encode("a\ufffdb")]
