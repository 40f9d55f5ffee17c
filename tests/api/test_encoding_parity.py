"""Encoding fields (ids, tokens, character offsets, masks, type and word ids)
match HF tokenizers on every corpus tokenizer.json: single inputs, pairs,
truncation with stride and padding."""

import pytest

from hf_pairs import NAMES, assert_same_encoding, pair, params_id, reference_or_refusal, sample


@pytest.mark.parametrize("name", NAMES)
def test_single_fields(name):
    ref, tok = pair(name)
    for text in sample():
        for add in (True, False):
            assert_same_encoding(ref.encode(text, add_special_tokens=add),
                                 tok.encode(text, add_special_tokens=add, return_encoding=True), text)


@pytest.mark.parametrize("name", NAMES)
def test_ids_only_equals_encoding_ids(name):
    _, tok = pair(name)
    for text in sample(60):
        assert tok.encode(text) == tok.encode(text, return_encoding=True).ids


@pytest.mark.parametrize("name", NAMES)
def test_pairs(name):
    ref, tok = pair(name)
    texts = sample(40, max_chars=300)
    for a, b in zip(texts, texts[1:]):
        for add in (True, False):
            assert_same_encoding(ref.encode(a, b, add_special_tokens=add),
                                 tok.encode(a, b, add_special_tokens=add, return_encoding=True), a + " | " + b)
            assert tok.encode(a, b, add_special_tokens=add) == ref.encode(a, b, add_special_tokens=add).ids


TRUNCATIONS = [
    dict(max_length=16, stride=0),
    dict(max_length=24, stride=5),
    dict(max_length=24, stride=5, direction="left"),
    dict(max_length=20, stride=3, strategy="only_first"),
    dict(max_length=20, stride=2, strategy="only_second"),
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("params", TRUNCATIONS, ids=params_id)
def test_truncation_with_stride(name, params):
    ref, tok = pair(name)
    ref.enable_truncation(**params)
    tok.enable_truncation(**params)
    try:
        assert tok.truncation == ref.truncation
        texts = sample(30, max_chars=400)
        for a, b in zip(texts, texts[1:]):
            for args in ((a, b),) if params.get("strategy") == "only_second" else ((a,), (a, b)):
                expected = reference_or_refusal(ref, tok, *args)
                if expected is None:
                    continue
                actual = tok.encode(*args, return_encoding=True)
                assert_same_encoding(expected, actual, " | ".join(args))
                assert tok.encode(*args) == expected.ids
    finally:
        ref.no_truncation()
        tok.no_truncation()


PADDINGS = [
    dict(length=64),
    dict(direction="left", pad_id=3, pad_type_id=1, pad_token="<pad>", length=48),
    dict(pad_to_multiple_of=8),
]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("params", PADDINGS, ids=params_id)
def test_padding(name, params):
    ref, tok = pair(name)
    ref.enable_padding(**params)
    tok.enable_padding(**params)
    ref.enable_truncation(40, stride=4)
    tok.enable_truncation(40, stride=4)
    try:
        assert tok.padding == ref.padding
        texts = list(sample(20, max_chars=300))
        for text in texts:
            assert_same_encoding(ref.encode(text), tok.encode(text, return_encoding=True), text)
            assert tok.encode(text) == ref.encode(text).ids  # the ids alone (encode_full_ids)
        batch = texts[:12]
        for e, a, text in zip(ref.encode_batch(batch), tok.encode_batch(batch, return_encoding=True), batch):
            assert_same_encoding(e, a, text)
        assert tok.encode_batch(batch) == [e.ids for e in ref.encode_batch(batch)]
        pairs = list(zip(texts[:8], texts[8:16]))
        for e, a, p in zip(ref.encode_batch(pairs), tok.encode_batch(pairs, return_encoding=True), pairs):
            assert_same_encoding(e, a, " | ".join(p))
            assert tok.encode(*p) == ref.encode(*p).ids  # alone, not padded to the batch's longest
    finally:
        for t in (ref, tok):
            t.no_padding()
            t.no_truncation()
