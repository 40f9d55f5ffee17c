"""Pairs with truncation, stride and overflowing pieces under each kind of
post-processor the corpus has or HF offers for it: TemplateProcessing
(bert-base-uncased and xlm-roberta as shipped), BertProcessing and
RobertaProcessing (the same files with the processor swapped). Every field
of the encoding and of its overflowing pieces, type ids included, matches
HF, with and without special tokens."""

import functools
import json

import pytest

import corpus
import mtok
from hf_pairs import assert_same_encoding, params_id, reference_or_refusal, sample

tokenizers = pytest.importorskip("tokenizers")

PROCESSORS = {
    "bert-template": ("bert-base-uncased", None),
    "bert-processing": ("bert-base-uncased", {"type": "BertProcessing", "sep": ["[SEP]", 102],
                                              "cls": ["[CLS]", 101]}),
    "xlm-roberta-template": ("xlm-roberta", None),
    "xlm-roberta-roberta-processing": ("xlm-roberta", {"type": "RobertaProcessing", "sep": ["</s>", 2],
                                                       "cls": ["<s>", 0], "trim_offsets": True,
                                                       "add_prefix_space": True}),
}


@functools.lru_cache(maxsize=None)
def loaded(key, tmp_root):
    name, processor = PROCESSORS[key]
    path = corpus.file_path("tokenizers", name, "tokenizer.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    if processor is not None:
        data["post_processor"] = processor
    data["truncation"] = data["padding"] = None
    out = tmp_root / f"{key}.json"
    out.write_text(json.dumps(data), encoding="utf-8")
    return tokenizers.Tokenizer.from_file(str(out)), mtok.Tokenizer.from_file(out)


@pytest.fixture(scope="module")
def tmp_root(tmp_path_factory):
    return tmp_path_factory.mktemp("processors")


TRUNCATIONS = [
    dict(max_length=12, stride=3),
    dict(max_length=20, stride=5, direction="left"),
    dict(max_length=16, stride=2, strategy="only_first"),
    dict(max_length=16, stride=4, strategy="only_second"),
]


@pytest.mark.parametrize("key", PROCESSORS)
@pytest.mark.parametrize("params", TRUNCATIONS, ids=params_id)
def test_pairs_with_overflow(key, params, tmp_root):
    ref, tok = loaded(key, tmp_root)
    texts = sample(24, max_chars=250)
    checked = overflowed = 0
    for t in (ref, tok):
        t.enable_truncation(**params)
    try:
        for a, b in zip(texts, texts[1:]):
            for add in (True, False):
                expected = reference_or_refusal(ref, tok, a, b, add_special_tokens=add)
                if expected is None:
                    continue
                assert_same_encoding(expected, tok.encode(a, b, add_special_tokens=add, return_encoding=True),
                                     a + " | " + b)
                checked += 1
                overflowed += bool(expected.overflowing)
    finally:
        for t in (ref, tok):
            t.no_truncation()
    assert checked >= 10 and overflowed >= 5


@pytest.mark.parametrize("key", PROCESSORS)
def test_pair_batches_padded(key, tmp_root):
    ref, tok = loaded(key, tmp_root)
    texts = list(sample(16, max_chars=200))
    pairs = list(zip(texts[:8], texts[8:16]))
    for t in (ref, tok):
        t.enable_truncation(14, stride=3)
        t.enable_padding(pad_type_id=1, pad_to_multiple_of=8)
    try:
        for e, a, p in zip(ref.encode_batch(pairs), tok.encode_batch(pairs, return_encoding=True), pairs):
            assert_same_encoding(e, a, " | ".join(p))
    finally:
        for t in (ref, tok):
            t.no_truncation()
            t.no_padding()


def test_processor_kind_is_stored(tmp_root):
    """Bert and Roberta processors keep their own POST type."""
    for key, code in (("bert-template", 1), ("bert-processing", 2), ("xlm-roberta-roberta-processing", 3)):
        _, tok = loaded(key, tmp_root)
        (post,) = [s for s in tok.inspect()["sections"] if s["name"] == "POST"]
        assert tok.to_bytes()[post["offset"]] == code
