"""A tokenizer.json's own truncation and padding (gpt2 truncates at 50,
bert-base-uncased truncates and pads at 128) apply by default, as in HF
tokenizers: the settings, ids, masks and overflowing pieces match on corpus
text, loaded from the tokenizer.json or from its .mtok export."""

import functools
import json

import pytest

import corpus
import mtok
from hf_pairs import NAMES, assert_same_encoding, reference_or_refusal, sample

tokenizers = pytest.importorskip("tokenizers")


@functools.lru_cache(maxsize=None)
def loaded(name):
    """(HF tokenizer, mtok from tokenizer.json, mtok from .mtok bytes), each
    with the file's own settings."""
    path = corpus.file_path("tokenizers", name, "tokenizer.json")
    tok = mtok.Tokenizer.from_file(path)
    return (tokenizers.Tokenizer.from_file(str(path)), tok, mtok.Tokenizer.from_bytes(tok.to_bytes()))


def same_encoding(ref, tok, *args) -> bool:
    """Both encode args alike (True), or both refuse (False: a strategy that
    cannot cut the input short enough)."""
    expected = reference_or_refusal(ref, tok, *args)
    if expected is None:
        return False
    assert_same_encoding(expected, tok.encode(*args, return_encoding=True), " | ".join(args))
    assert tok.encode(*args) == expected.ids
    return True


def check_defaults(ref, tok, texts):
    assert tok.truncation == ref.truncation
    assert tok.padding == ref.padding
    texts = [t for t in texts if same_encoding(ref, tok, t)]
    pairs = [p for p in zip(texts[:20], texts[20:40]) if same_encoding(ref, tok, *p)]
    assert len(texts) > 20 and pairs
    for batch in (texts[:16], pairs):
        for e, a, text in zip(ref.encode_batch(batch), tok.encode_batch(batch, return_encoding=True), batch):
            assert_same_encoding(e, a, str(text))
        assert tok.encode_batch(batch) == [e.ids for e in ref.encode_batch(batch)]


@pytest.mark.parametrize("name", NAMES)
def test_file_settings_apply_by_default(name):
    ref, from_json, from_mtok = loaded(name)
    texts = list(sample(60, max_chars=2000))
    for tok in (from_json, from_mtok):
        check_defaults(ref, tok, texts)


def test_corpus_has_files_with_settings():
    """The test above covers real settings, not only files without them."""
    with_settings = [n for n in NAMES if loaded(n)[0].truncation or loaded(n)[0].padding]
    assert {"gpt2", "bert-base-uncased"} <= set(with_settings)
    assert loaded("bert-base-uncased")[1].padding["length"] == 128


# Every field away from its default, on bert's file.
VARIANTS = [
    {"truncation": {"max_length": 40, "stride": 6, "strategy": "OnlyFirst", "direction": "Left"},
     "padding": {"strategy": "BatchLongest", "direction": "Left", "pad_to_multiple_of": 16, "pad_id": 7,
                 "pad_type_id": 2, "pad_token": "[UNK]"}},
    {"truncation": {"max_length": 30, "stride": 4, "strategy": "LongestFirst"},  # no direction: Right
     "padding": None},
    {"truncation": None,
     "padding": {"strategy": {"Fixed": 70}, "direction": "Right", "pad_to_multiple_of": 0, "pad_id": 0,
                 "pad_type_id": 0, "pad_token": "[PAD]"}},
]


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_every_setting_field(variant, tmp_path):
    src = corpus.file_path("tokenizers", "bert-base-uncased", "tokenizer.json")
    data = json.loads(src.read_text(encoding="utf-8"))
    data.update(VARIANTS[variant])
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ref = tokenizers.Tokenizer.from_file(str(path))
    tok = mtok.Tokenizer.from_file(path)
    texts = [t for t in sample(60, max_chars=600) if len(t) > 40]
    for t in (tok, mtok.Tokenizer.from_bytes(tok.to_bytes())):
        check_defaults(ref, t, texts)


def test_settings_can_be_changed_and_pickle():
    import pickle

    _, tok, _ = loaded("gpt2")
    copy = pickle.loads(pickle.dumps(tok))
    copy.no_truncation()
    assert tok.truncation["max_length"] == 50 and copy.truncation is None
    assert pickle.loads(pickle.dumps(copy)).truncation is None
    assert len(copy.encode("word" + " word" * 199)) == 200
