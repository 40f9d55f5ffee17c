"""The converter's native fast path for tokenizer.json (convert/tokenizer_json.py,
cpp/src/convert/) writes exactly the bytes of the Python writer, and leaves
every file it does not take to the Python importer."""

import copy
import json
import struct

import pytest

from corpus import file_path
from mtok import FormatError, _native
from mtok.convert import load_spec, to_mtok_bytes
from mtok.convert.export import export_mtok
from small_spec import small_spec


def _both(path):
    return to_mtok_bytes(str(path)), export_mtok(load_spec(str(path)))


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
        slow = export_mtok(load_spec(str(path)))
    except FormatError as e:
        with pytest.raises(FormatError) as got:
            to_mtok_bytes(str(path))
        assert str(got.value) == str(e)
    else:
        assert to_mtok_bytes(str(path)) == slow


@pytest.mark.parametrize("rel", ["tokenizers/bert-base-uncased/tokenizer.json", "tokenizers/t5-small/spiece.model",
                                 "tiktoken/r50k_base.tiktoken"])
def test_load_spec_keeps_the_full_model(rel):
    """Specs for other writers (MNN .txt export) hold the vocab; only the
    .mtok writer's may hold a written section."""
    path = str(file_path(*rel.split("/")))
    assert "vocab" in load_spec(path)["model"]
    assert "mtok_section" in load_spec(path, native=True)["model"]


def test_lookups_give_vocab_ids():
    raw = json.dumps(_json_spec()).encode()
    got = _native.hf_model_section(raw, ["a", "he", "nope"])
    assert got[2] == "BPE" and got[4] == [0, small_spec()["model"]["vocab"]["he"], None]
    assert json.loads(raw[got[0]:got[1]])["type"] == "BPE"


# --- SentencePiece .model (cpp/src/convert/sp_model.cc) ---------------------

def _native_vs_python(load, native, path, monkeypatch, **options):
    """(result with the native reader, result with `_native.<native>` off):
    .mtok bytes or the error text."""
    def run():
        try:
            return export_mtok(load(str(path), native=True, **options))
        except FormatError as e:
            return f"FormatError: {e}"

    fast = run()
    with monkeypatch.context() as m:
        m.setattr(_native, native, lambda data: None)
        slow = run()
    return fast, slow


def _spm_both(path, monkeypatch, **options):
    from mtok.convert.sentencepiece import load_sentencepiece

    return _native_vs_python(load_sentencepiece, "sp_model_facts", path, monkeypatch, **options)


@pytest.mark.parametrize("rel", ["llama2/tokenizer.model", "mistral/tokenizer.model.v1", "t5-small/spiece.model",
                                 "sentencepiece-test/test_model.model", "sentencepiece-test/test_ja_model.model"])
@pytest.mark.parametrize("options", [{}, {"add_bos": True}, {"add_eos": True}])
def test_sentencepiece_bytes_match_the_protobuf_importer(rel, options, monkeypatch):
    path = file_path("tokenizers", *rel.split("/"))
    assert _native.sp_model_facts(path.read_bytes()) is not None
    fast, slow = _spm_both(path, monkeypatch, **options)
    assert fast == slow


def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _piece(text, kind=1):

    return _field(1, _field(1, text.encode()) + b"\x15" + struct.pack("<f", -1.5) + b"\x18" + _varint(kind))


def _model(*pieces, trainer=b"\x18\x01"):
    return b"".join(pieces) + _field(2, trainer)


@pytest.mark.parametrize("name,data", [
    ("no unknown", _model(_piece("a"), _piece("b"))),
    ("two unknowns", _model(_piece("<unk>", 2), _piece("u", 2))),
    ("twice", _model(_piece("<unk>", 2), _piece("a"), _piece("a"))),
    ("twice in a bpe model", _model(_piece("<unk>", 2), _piece("b"), _piece("a"), _piece("c"), _piece("a"),
                                    trainer=b"\x18\x02")),
    ("empty piece", _model(_piece("<unk>", 2), _piece(""))),
    ("unknown enum", _model(_piece("<unk>", 2), _piece("a", 9))),
    ("WORD model", _model(_piece("<unk>", 2), trainer=b"\x18\x03")),
    ("denormalizer", _model(_piece("<unk>", 2)) + _field(5, _field(2, b"xx"))),
    ("truncated", _model(_piece("<unk>", 2), _piece("abc"))[:-3]),
])
def test_sentencepiece_declined(tmp_path, monkeypatch, name, data):
    path = tmp_path / "m.model"
    path.write_bytes(data)
    assert _native.sp_model_facts(data) is None
    fast, slow = _spm_both(path, monkeypatch)
    assert fast == slow


def test_sentencepiece_small_model_taken(tmp_path, monkeypatch):
    data = _model(_piece("<unk>", 2), _piece("<s>", 3), _piece("</s>", 3), _piece("\u2581a"), _piece("b", 4),
                  _piece("<0x41>", 6), trainer=b"\x18\x02")
    path = tmp_path / "m.model"
    path.write_bytes(data)
    facts = _native.sp_model_facts(data)
    assert facts["kind"] == "SentencePieceBPE" and facts["user_defined"] == ["b"] and facts["control"] == ["<s>", "</s>"]
    fast, slow = _spm_both(path, monkeypatch, add_bos=True, add_eos=True)
    assert fast == slow


def _raw_piece(*fields):
    """A piece message from (field number, wire type, payload bytes) in the
    order given: layouts protobuf allows besides the one SentencePiece writes."""
    out = b""
    for number, wire, payload in fields:
        out += _varint(number << 3 | wire) + (_varint(len(payload)) if wire == 2 else b"") + payload
    return _field(1, out)


def test_sentencepiece_piece_layouts(tmp_path, monkeypatch):
    # The native reader takes SentencePiece's own layout without its field
    # loop (sp_model.cc, ReadUsualPiece) and every other one with it: each
    # must give what the protobuf importer gives.

    score = struct.pack("<f", -2.25)
    long_text = "\u2581" + "x" * 200  # a two-byte length
    longer_text = "y" * 20000  # three bytes: the field loop
    pieces = [
        _piece("<unk>", 2), _piece("<s>", 3), _piece("</s>", 3),
        _raw_piece((1, 2, "\u2581no_type".encode()), (2, 5, score)),  # type left out: NORMAL
        _raw_piece((1, 2, "no_score".encode()), (3, 0, b"\x01")),  # score left out: 0
        _raw_piece((3, 0, b"\x01"), (2, 5, score), (1, 2, "reversed".encode())),
        _raw_piece((1, 2, b"first"), (1, 2, "repeated".encode()), (2, 5, score)),  # the last text counts
        _raw_piece((1, 2, long_text.encode()), (2, 5, score), (3, 0, b"\x01")),
        _raw_piece((1, 2, longer_text.encode()), (2, 5, score)),
        _raw_piece((1, 2, b"user"), (2, 5, score), (3, 0, b"\x04")),
        _raw_piece((1, 2, b"pad_type"), (2, 5, score), (3, 0, b"\x81\x00")),  # type 1 as a two-byte varint
    ]
    path = tmp_path / "m.model"
    path.write_bytes(_model(*pieces))
    facts = _native.sp_model_facts(path.read_bytes())
    assert facts is not None and facts["pieces"] == len(pieces) and facts["user_defined"] == ["user"]
    fast, slow = _spm_both(path, monkeypatch)
    assert isinstance(fast, bytes) and fast == slow


# --- whole SentencePiece files (cpp/src/convert/sp_file.cc) -----------------

def _python_file(path, **options):
    """The .mtok bytes of the protobuf importer and the Python writer, or the error text."""
    try:
        return export_mtok(load_spec(str(path), native=False, **options))
    except FormatError as e:
        return f"FormatError: {e}"


def _native_file(path):
    try:
        return to_mtok_bytes(str(path))
    except FormatError as e:
        return f"FormatError: {e}"


@pytest.mark.parametrize("rel", ["llama2/tokenizer.model", "mistral/tokenizer.model.v1", "t5-small/spiece.model",
                                 "sentencepiece-test/test_model.model", "sentencepiece-test/test_ja_model.model"])
def test_sentencepiece_file_matches_the_python_writer(rel):
    path = file_path("tokenizers", *rel.split("/"))
    data = _native.sp_model_file(path.read_bytes())
    assert data is not None and data == _python_file(path)
    assert to_mtok_bytes(str(path)) == data


def _trainer(*fields):
    """TrainerSpec bytes from (field number, int value) varints (negative: two's complement)."""
    return b"".join(_varint(n << 3) + _varint(v & (2**64 - 1)) for n, v in fields)


@pytest.mark.parametrize("name,data", [
    ("bpe with every piece type", _model(_piece("<unk>", 2), _piece("<s>", 3), _piece("</s>", 3), _piece("\u2581a"),
                                         _piece("b", 4), _piece("<0x41>", 6), _piece("c", 5),
                                         trainer=b"\x18\x02")),
    ("no bos, no eos", _model(_piece("<unk>", 2), _piece("a"), trainer=_trainer((3, 1), (41, -1), (42, -1)))),
    ("ids past the vocab", _model(_piece("<unk>", 2), _piece("a"), trainer=_trainer((3, 2), (41, 7), (42, 9)))),
    ("normalizer flags off", _model(_piece("<unk>", 2), _piece("a")) + _field(3, b"\x18\x00\x20\x00\x28\x00")),
    ("whitespace as suffix", _model(_piece("<unk>", 2), _piece("a"), trainer=_trainer((3, 1), (24, 1)))),
    ("unk surface", _model(_piece("<unk>", 2), _piece("a"), trainer=b"\x18\x01" + _field(44, "??".encode()))),
], ids=lambda v: v if isinstance(v, str) else "")
def test_sentencepiece_small_files_match(tmp_path, name, data):
    path = tmp_path / "m.model"
    path.write_bytes(data)
    native = _native.sp_model_file(data)
    assert native is not None
    assert native == _python_file(path)


@pytest.mark.parametrize("name,data", [
    ("invalid UTF-8 piece", _model(_piece("<unk>", 2), _raw_piece((1, 2, b"\xff\xfe"), (3, 0, b"\x01")))),
    ("invalid UTF-8 after the word mark", _model(_piece("<unk>", 2),
                                                 _raw_piece((1, 2, "\u2581ab".encode() + b"\xc3"), (3, 0, b"\x01")))),
    ("a surrogate after the word mark", _model(_piece("<unk>", 2),
                                               _raw_piece((1, 2, "\u2581".encode() + b"\xed\xa0\x80"), (3, 0, b"\x01")))),
    ("twice", _model(_piece("<unk>", 2), _piece("a"), _piece("a"))),
    ("twice in a bpe model", _model(_piece("<unk>", 2), _piece("b"), _piece("a"), _piece("c"), _piece("a"),
                                    trainer=b"\x18\x02")),
    ("no unknown", _model(_piece("a"), _piece("b"))),
    ("truncated", _model(_piece("<unk>", 2), _piece("abc"))[:-3]),
    ("unk surface too long", _model(_piece("<unk>", 2), trainer=b"\x18\x01" + _field(44, b"x" * 70000))),
    ("byte fallback without the byte pieces", _model(_piece("<unk>", 2), _piece("<0x41>", 6),
                                                     trainer=_trainer((3, 2), (35, 1)))),
    ("a score that is not a number", _model(_piece("<unk>", 2),
                                            _raw_piece((1, 2, b"a"), (2, 5, struct.pack("<f", float("nan")))))),
    ("an infinite bpe score", _model(_piece("<unk>", 2), _raw_piece((1, 2, b"a"), (2, 5, struct.pack("<f", float("inf")))),
                                     trainer=b"\x18\x02")),
], ids=lambda v: v if isinstance(v, str) else "")
def test_sentencepiece_files_declined(tmp_path, name, data):
    # Files the native writer does not take reach the protobuf importer,
    # which reports what is wrong, as before.
    path = tmp_path / "m.model"
    path.write_bytes(data)
    assert _native.sp_model_file(data) is None
    python = _python_file(path)
    assert isinstance(python, str) and python.startswith("FormatError")
    assert _native_file(path) == python


def test_sentencepiece_options_take_the_python_writer(monkeypatch):
    # add_bos / add_eos add a post-processor the native file does not write.
    path = file_path("tokenizers", "llama2", "tokenizer.model")
    monkeypatch.setattr(_native, "sp_model_file", lambda data: pytest.fail("native file with options"))
    assert to_mtok_bytes(str(path), add_bos=True) == _python_file(path, add_bos=True)


# --- .tiktoken rank files (cpp/src/convert/tiktoken_ranks.cc) ----------------

def _tiktoken_both(path, monkeypatch, **options):
    from mtok.convert.tiktoken_file import load_tiktoken_file

    return _native_vs_python(load_tiktoken_file, "tiktoken_model_section", path, monkeypatch, **options)


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base"])
def test_tiktoken_bytes_match_the_python_reader(name, monkeypatch):
    path = file_path("tiktoken", f"{name}.tiktoken")
    assert _native.tiktoken_model_section(path.read_bytes()) is not None
    fast, slow = _tiktoken_both(path, monkeypatch)
    assert fast == slow


def _ranks_file(extra=b"", skip=None):
    import base64

    lines = [base64.b64encode(bytes([b])) + b" " + str(b).encode() for b in range(256) if b != skip]
    lines += [base64.b64encode(b"he") + b" 256", base64.b64encode(b"hello") + b"\t257"]
    return b"\r\n".join(lines) + b"\n\n" + extra


@pytest.mark.parametrize("name,data,taken", [
    ("ok", _ranks_file(), True),
    ("missing byte", _ranks_file(skip=7), False),
    ("rank twice", _ranks_file(b"aGk= 256\n"), False),
    ("token twice", _ranks_file(b"aGU= 999\n"), False),
    ("bad base64", _ranks_file(b"a*k= 300\n"), False),
    ("bad padding", _ranks_file(b"aGk 300\n"), False),
    ("negative rank", _ranks_file(b"aGk= -3\n"), False),
    ("third field", _ranks_file(b"aGk= 300 x\n"), False),
])
def test_tiktoken_small_files(tmp_path, monkeypatch, name, data, taken):
    path = tmp_path / "x.tiktoken"
    path.write_bytes(data)
    assert (_native.tiktoken_model_section(data) is not None) == taken
    fast, slow = _tiktoken_both(path, monkeypatch, pattern=r"\S+|\s+")
    assert fast == slow
