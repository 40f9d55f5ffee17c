"""The converter's native fast path for tokenizer.json (convert/tokenizer_json.py,
cpp/src/convert/) writes exactly the bytes of the Python writer, and leaves
every file it does not take to the Python importer."""

import copy
import json

import pytest

from corpus import file_path
from mtok import FormatError, _native
from mtok.convert import load_spec, to_mtok_bytes
from mtok.format.writer import write_mtok
from small_spec import small_spec


def _both(path):
    return to_mtok_bytes(str(path)), write_mtok(load_spec(str(path)))


def _write(tmp_path, data, raw=None):
    path = tmp_path / "tokenizer.json"
    path.write_bytes(raw if raw is not None else json.dumps(data).encode())
    return path


def _json_spec():
    spec = small_spec()
    spec.pop("mtok")
    return spec


@pytest.mark.parametrize("name", ["bert-base-uncased", "t5-small", "mistral-7b-v0.1"])
def test_corpus_bytes_match_the_python_writer(name):
    fast, slow = _both(file_path("tokenizers", name, "tokenizer.json"))
    assert fast == slow


def _variants():
    spec = _json_spec()
    yield "bpe", spec
    s = copy.deepcopy(spec)
    s["model"]["merges"] = [m.split(" ") for m in s["model"]["merges"]]
    yield "pair merges", s
    s = copy.deepcopy(spec)
    s["model"]["merges"].append(s["model"]["merges"][0])  # a repeated pair keeps its last rank
    yield "repeated merge", s
    s = copy.deepcopy(spec)
    del s["model"]["type"]
    s["model"]["unk_token"] = "a"
    s["model"]["fuse_unk"] = True
    yield "no type, unk", s
    s = copy.deepcopy(spec)
    vocab = {("##" + t if i % 2 else t): i for i, t in enumerate(s["model"]["vocab"])}
    s["model"] = {"type": "WordPiece", "vocab": vocab, "unk_token": "##b", "max_input_chars_per_word": 7}
    yield "wordpiece", s
    s = copy.deepcopy(spec)
    s["model"] = {"type": "Unigram", "unk_id": 1, "byte_fallback": True, "vocab": [
        ["é", -1.2345678901234567], ["a", -2.5e-3], ["b", 0], ["\U0001F600", -12.000000000000000001],
        ["a", -3.0], ["\u00e9\u0301", -1e-310]]}
    yield "unigram", s


@pytest.mark.parametrize("name,spec", list(_variants()), ids=[n for n, _ in _variants()])
def test_variants_match(tmp_path, name, spec):
    path = _write(tmp_path, spec)
    assert _native.hf_model_section(path.read_bytes(), []) is not None, "the fast path should take it"
    fast, slow = _both(path)
    assert fast == slow


def test_escapes_and_prefix_characters(tmp_path):
    spec = _json_spec()
    tokens = ["\u00e9", "\U0001F600", "\U0001F600\u00e9", "\"\\/\n", "\u00e9\u00e9", "a", "\U0001F600a"]
    # The prefix is one character of two bytes: a merge drops it from its right side.
    spec["model"] = {"type": "BPE", "vocab": {t: i for i, t in enumerate(tokens)},
                     "merges": ["\U0001F600 \u00e9\u00e9", ["\U0001F600", "\u00e9a"]],
                     "continuing_subword_prefix": "\u00e9", "end_of_word_suffix": "\n"}
    spec["model"]["vocab"]["\u00e9a"] = len(tokens)
    raw = json.dumps(spec, ensure_ascii=True).encode()  # \uXXXX escapes, surrogate pairs
    path = _write(tmp_path, None, raw)
    assert _native.hf_model_section(raw, []) is not None
    fast, slow = _both(path)
    assert fast == slow


def _declined():
    spec = _json_spec()
    bad = {
        "duplicate vocab key": json.dumps(spec).replace('"a": 0,', '"a": 0, "a": 0,', 1),
        "duplicate id": json.dumps(spec).replace('"b": 1,', '"b": 0,', 1),
        "lone surrogate": json.dumps(spec).replace('"a": 0,', '"\\ud800": 0, "a": 0,', 1),
        "trailing comma": json.dumps(spec).replace('"a": 0,', '"a": 0,,', 1),
        "float id": json.dumps(spec).replace('"a": 0,', '"a": 0.0,', 1),
        "merge not in vocab": json.dumps(spec).replace('"h e"', '"h q9"', 1),
        "bad merge": json.dumps(spec).replace('"h e"', '"h e e"', 1),
        "mtok key": json.dumps(spec).replace('"type": "BPE"', '"type": "BPE", "mtok_rank_merges": true', 1),
        "WordLevel": json.dumps(spec).replace('"type": "BPE"', '"type": "WordLevel"', 1),
        "NaN dropout": json.dumps(spec).replace('"dropout": null', '"dropout": NaN', 1),
        "dropout": json.dumps(spec).replace('"dropout": null', '"dropout": 0.1', 1),
        "truncated": json.dumps(spec)[:-40],
        "not utf-8": json.dumps(spec).replace('"a": 0,', '"\xff": 0, "a": 0,', 1).encode("latin-1"),
    }
    for name, text in bad.items():
        yield name, text if isinstance(text, bytes) else text.encode()


@pytest.mark.parametrize("name,raw", list(_declined()), ids=[n for n, _ in _declined()])
def test_declined_files_go_to_the_python_importer(tmp_path, name, raw):
    assert _native.hf_model_section(raw, []) is None
    path = _write(tmp_path, None, raw)
    try:
        slow = write_mtok(load_spec(str(path)))
    except FormatError as e:
        with pytest.raises(FormatError) as got:
            to_mtok_bytes(str(path))
        assert str(got.value) == str(e)
    else:
        assert to_mtok_bytes(str(path)) == slow


def test_lookups_give_vocab_ids():
    raw = json.dumps(_json_spec()).encode()
    got = _native.hf_model_section(raw, ["a", "he", "nope"])
    assert got[2] == "BPE" and got[4] == [0, small_spec()["model"]["vocab"]["he"], None]
    assert json.loads(raw[got[0]:got[1]])["type"] == "BPE"
