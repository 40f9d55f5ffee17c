"""MNN's legacy tokenizer.txt (types 0-3): files mtok writes read back to the
source tokenizer's ids; files MNN's exporter writes load with the options
the format leaves out; what a type cannot hold is refused or reported, never
guessed; malformed files raise FormatError naming the line."""

import base64
import lzma
import os
import random

import pytest

import corpus
import mtok
from mnn_export import mnn_txt_bert, mnn_txt_huggingface, mnn_txt_sentencepiece
from mtok.convert.legacy.mnn_txt import spec_from_mnn_txt
from mtok.convert.openai_encodings import ENCODING_SPECS
from mtok.convert.tiktoken_file import parse_ranks, spec_from_ranks
from mtok.convert.tokenizer_json import load_tokenizer_json
from mtok.convert.legacy.writer import export_legacy_txt
from mtok.convert.export import export_mtok

tokenizers = pytest.importorskip("tokenizers")

SAMPLE_STEP = 60  # every 60th parity string: ~1500 lines, paragraphs and chunks


def sample():
    return list(corpus.parity_strings()[::SAMPLE_STEP])


def ours(tok, texts, special=False):
    return tok.encode_batch(texts, add_special_tokens=special)


def assert_same(name, texts, expected, actual):
    bad = [i for i, (e, a) in enumerate(zip(expected, actual)) if e != a]
    assert len(expected) == len(actual)
    if bad:
        i = bad[0]
        where = next((k for k, (x, y) in enumerate(zip(expected[i], actual[i])) if x != y),
                     min(len(expected[i]), len(actual[i])))
        raise AssertionError(f"{name}: {len(bad)} of {len(texts)} differ; first {texts[i][:120]!r} "
                             f"at {where}: expected {expected[i][max(0, where - 3):where + 5]} "
                             f"got {actual[i][max(0, where - 3):where + 5]}")


def reload(spec, legacy_type=None, allow_loss=False):
    """Writes the legacy file, reads it back with the options it asks for."""
    out = export_legacy_txt(spec, legacy_type, allow_loss=allow_loss)
    back = spec_from_mnn_txt(out.data, "tokenizer.txt", **out.load_options)
    return out, mtok.Tokenizer.from_bytes(export_mtok(back))


def hf(name):
    ref = tokenizers.Tokenizer.from_file(str(corpus.file_path("tokenizers", name, "tokenizer.json")))
    ref.no_truncation()
    ref.no_padding()
    return ref


def json_spec(name):
    return load_tokenizer_json(str(corpus.file_path("tokenizers", name, "tokenizer.json")))


# --- type 3: byte-level BPE over merges ----------------------------------------


@pytest.mark.parametrize("name, preset, lossy", [("gpt2", "gpt2", False), ("llama3", "llama3", False),
                                                 ("qwen3", "qwen2", True)])
def test_type3_round_trip(name, preset, lossy):
    out, tok = reload(json_spec(name), allow_loss=lossy)
    assert out.legacy_type == 3
    assert out.load_options == {"pattern": preset}
    assert bool(out.losses) == lossy
    ref, texts = hf(name), sample()
    contents = [t.content for t in ref.get_added_tokens_decoder().values()][:50]
    texts += [f"a {c} b{c}c" for c in contents]
    for special in (False, True):
        expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=special)]
        assert_same(f"{name} type 3 special={special}", texts, expected, ours(tok, texts, special))
    ids = [e.ids for e in ref.encode_batch(texts[:300])]
    assert tok.decode_batch(ids) == ref.decode_batch(ids, skip_special_tokens=False)


def test_type3_qwen_loses_the_special_flag():
    """Qwen3's <tool_call> is a non-special added token; a legacy header can
    only list it as special, so mtok refuses unless told to accept that."""
    with pytest.raises(mtok.FormatError, match="'<tool_call>' is not special"):
        export_legacy_txt(json_spec("qwen3"))
    out, tok = reload(json_spec("qwen3"), allow_loss=True)
    call = tok.token_to_id("<tool_call>")
    assert tok.is_special(call)
    assert tok.decode([call], skip_special_tokens=True) == ""


def test_type3_file_written_by_mnn():
    """MNN copies merges.txt (its '#version' line included) and fills ids no
    token has with '<unk>'."""
    folder = corpus.file_path("tokenizers", "gpt2", "tokenizer.json").parent
    data = mnn_txt_huggingface(folder)
    assert b"\n#version" in data
    tok = mtok.Tokenizer.from_bytes(export_mtok(spec_from_mnn_txt(data, "gpt2.txt", pattern="gpt2")))
    ref, texts = hf("gpt2"), sample()
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    assert_same("gpt2 MNN type 3", texts, expected, ours(tok, texts))
    assert tok.stop_ids == [50256]


# --- type 1: tiktoken ranks ---------------------------------------------------


def packaged_spec(name):
    base, _, pattern, specials, _ = ENCODING_SPECS[name]
    path = os.path.join(os.path.dirname(mtok.__file__), "data", base + ".tiktoken.xz")
    with lzma.open(path) as f:
        ranks = parse_ranks(f.read(), base)
    return spec_from_ranks(ranks, pattern, specials, name), ranks


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base"])
def test_type1_round_trip(name):
    tiktoken = pytest.importorskip("tiktoken")
    spec, ranks = packaged_spec(name)
    out, tok = reload(spec)
    assert out.legacy_type == 1 and out.load_options == {"pattern": name}
    _, _, pattern, specials, _ = ENCODING_SPECS[name]
    ref = tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials)
    texts = sample()
    assert_same(f"{name} type 1", texts, [ref.encode_ordinary(t) for t in texts], ours(tok, texts))
    builtin = mtok.get_encoding(name)
    assert_same(f"{name} type 1 vs get_encoding", texts, [builtin.encode_ordinary(t) for t in texts],
                ours(tok, texts))
    with_specials = [f"{s} x {t[:50]}{s}" for s, t in zip(specials, texts)]
    expected = [ref.encode(t, allowed_special="all") for t in with_specials]
    assert_same(f"{name} type 1 specials", with_specials, expected, ours(tok, with_specials))
    assert tok.stop_ids == [specials["<|endoftext|>"]]


def test_type1_gaps_are_empty_lines():
    """cl100k has no token 100256: its line is empty and no token gets the id."""
    spec, _ = packaged_spec("cl100k_base")
    lines = export_legacy_txt(spec).data.split(b"\n")
    assert lines[4 + 100256] == b"" and lines[4 + 100257] != b""
    _, tok = reload(spec)
    assert tok.id_to_token(100256) is None


def test_type1_needs_a_pattern(tmp_path):
    spec, _ = packaged_spec("cl100k_base")
    path = tmp_path / "tokenizer.txt"
    path.write_bytes(export_legacy_txt(spec).data)
    with pytest.raises(mtok.FormatError, match=r"does not record its split regex.*pattern="):
        mtok.Tokenizer.from_file(path)
    with pytest.raises(mtok.FormatError, match="unknown pattern name 'cl100k'"):
        mtok.Tokenizer.from_file(path, pattern="cl100k")
    tok = mtok.Tokenizer.from_file(path, pattern="cl100k_base")
    assert tok.encode("hello world", add_special_tokens=False) == [15339, 1917]
    # A regex works as well as a name.
    same = mtok.Tokenizer.from_file(path, pattern=ENCODING_SPECS["cl100k_base"][2])
    assert same.encode("hello  world\n\n") == tok.encode("hello  world\n\n")


def test_type3_needs_a_pattern():
    data = export_legacy_txt(json_spec("gpt2")).data
    with pytest.raises(mtok.FormatError, match=r"type 3 \(HuggingFace BPE\).*pattern="):
        spec_from_mnn_txt(data, "gpt2.txt")


# --- type 0: SentencePiece ----------------------------------------------------


def test_type0_round_trip_from_tokenizer_json():
    out, tok = reload(json_spec("mistral-7b-v0.1"))
    assert out.legacy_type == 0 and out.load_options == {} and not out.losses
    ref, texts = hf("mistral-7b-v0.1"), sample()
    for special in (False, True):
        expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=special)]
        assert_same(f"mistral type 0 special={special}", texts, expected, ours(tok, texts, special))
    ids = [e.ids for e in ref.encode_batch(texts[:300])]
    assert tok.decode_batch(ids) == ref.decode_batch(ids, skip_special_tokens=False)


@pytest.mark.parametrize("model", [("llama2", "tokenizer.model"), ("mistral", "tokenizer.model.v1")])
def test_type0_file_written_by_mnn(model):
    """MNN writes U+2581 as a space and repeats special ids; the file means
    SentencePiece BPE over the scores, with byte fallback."""
    spm = pytest.importorskip("sentencepiece")
    path = corpus.file_path("tokenizers", *model)
    data = mnn_txt_sentencepiece(path)
    assert data.split(b"\n")[2] == b"0 1 2 1 2 0 2 1 "
    tok = mtok.Tokenizer.from_bytes(export_mtok(spec_from_mnn_txt(data, "tokenizer.txt")))
    sp = spm.SentencePieceProcessor(model_file=str(path))
    # The header's special ids are split out of the text (MNN does so, as HF
    # does); SentencePiece reads "<s>" as text, so leave such lines out.
    texts = [t for t in sample() if not any(s in t for s in ("<unk>", "<s>", "</s>"))]
    assert_same(f"{model[0]} MNN type 0", texts, sp.encode(texts), ours(tok, texts))
    assert tok.encode("a</s>b", add_special_tokens=False) == sp.encode("a") + [sp.eos_id()] + sp.encode("b")
    assert tok.encode("Hi") == [sp.bos_id()] + sp.encode("Hi")
    assert tok.stop_ids == [sp.eos_id()]
    ids = sp.encode(texts[:300])
    assert tok.decode_batch(ids) == sp.decode(ids)


def test_type0_unigram_with_option():
    """A Unigram model's file is read as Unigram only when asked; the file
    cannot carry T5's nmt_nfkc normalizer, so compare on text it leaves
    unchanged."""
    spm = pytest.importorskip("sentencepiece")
    path = corpus.file_path("tokenizers", "t5-small", "spiece.model")
    data = mnn_txt_sentencepiece(path)
    spec = spec_from_mnn_txt(data, "spiece.txt", sp_model="unigram")
    assert spec["model"]["type"] == "Unigram"
    tok = mtok.Tokenizer.from_bytes(export_mtok(spec))
    sp = spm.SentencePieceProcessor(model_file=str(path))
    # Keep the text SentencePiece's own normalizer leaves as a type 0 file says:
    # U+2581 first, spaces as U+2581, nothing else changed.
    texts = [t for t in sample() if sp.normalize(t) == "\u2581" + t.replace(" ", "\u2581")]
    assert len(texts) > 300
    assert_same("t5 MNN type 0 unigram", texts, sp.encode(texts), ours(tok, texts))


# --- type 2: BERT ----------------------------------------------------------------


def test_type2_round_trip():
    """bert's [SEP] after the text has no place in a legacy header: written
    only with allow_loss, and read back as [CLS] + text."""
    with pytest.raises(mtok.FormatError, match=r"adds ids \[102\] after the text"):
        export_legacy_txt(json_spec("bert-base-uncased"))
    out, tok = reload(json_spec("bert-base-uncased"), allow_loss=True)
    assert out.legacy_type == 2 and out.load_options == {}
    ref, texts = hf("bert-base-uncased"), sample()
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    assert_same("bert type 2", texts, expected, ours(tok, texts))
    assert ours(tok, texts, True) == [[101] + ids for ids in expected]


def test_type2_file_written_by_mnn():
    data = mnn_txt_bert(corpus.file_path("tokenizers", "bert-base-uncased", "tokenizer.json"))
    tok = mtok.Tokenizer.from_bytes(export_mtok(spec_from_mnn_txt(data, "bert.txt")))
    ref, texts = hf("bert-base-uncased"), sample()
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    assert_same("bert MNN type 2", texts, expected, ours(tok, texts))


def _tiny_bert(tokens):
    lines = "".join(base64.b64encode(t.encode()).decode() + "\n" for t in tokens)
    return f"430 2\n0 0 0\n\n{len(tokens)}\n{lines}".encode()


def test_type2_cased_vocab_needs_lowercase_option():
    data = _tiny_bert(["[UNK]", "Hello", "hello", "##lo"])
    with pytest.raises(mtok.FormatError, match="lowercase=False"):
        spec_from_mnn_txt(data, "bert.txt")
    cased = spec_from_mnn_txt(data, "bert.txt", lowercase=False)
    assert cased["normalizer"]["lowercase"] is False
    uncased = spec_from_mnn_txt(_tiny_bert(["[UNK]", "hello"]), "bert.txt")
    assert uncased["normalizer"]["lowercase"] is True


# --- options are never ignored ---------------------------------------------------


@pytest.mark.parametrize("kind, options, message", [
    (2, {"pattern": "gpt2"}, "pattern do not apply to a type 2"),
    (0, {"lowercase": True}, "lowercase do not apply to a type 0"),
    (3, {"pattern": "gpt2", "sp_model": "bpe"}, "sp_model do not apply to a type 3"),
    (3, {"pattern": "gpt2", "normalizer": "NFX"}, "normalizer must be one of"),
    (3, {"pattern": "gpt2", "colour": 1}, "unknown legacy tokenizer.txt option"),
])
def test_options_that_do_not_apply_are_errors(kind, options, message):
    files = {0: "430 0\n0 0 0\n\n1\nYQ== 0.0 1\n", 2: "430 2\n0 0 0\n\n1\nW1VOS10=\n",
             3: "430 3\n0 0 0\n\n1 0\na\n"}
    with pytest.raises(mtok.FormatError, match=message):
        spec_from_mnn_txt(files[kind].encode(), "t.txt", **options)


# --- writing --------------------------------------------------------------------


def test_writing_is_deterministic():
    spec = json_spec("gpt2")
    assert export_legacy_txt(spec).data == export_legacy_txt(spec).data


def test_header_layout():
    out = export_legacy_txt(json_spec("mistral-7b-v0.1"))
    head = out.data.split(b"\n")[:5]
    assert head == [b"430 0", b"3 1 1", b"0 1 2 2 1", b"32000", head[4]]
    assert head[4] == b"PHVuaz4= 0.0 2"  # <unk>, UNKNOWN


def test_type_is_chosen_or_refused():
    with pytest.raises(mtok.FormatError, match="write it as type 1"):
        export_legacy_txt(packaged_spec("cl100k_base")[0], legacy_type=3)
    with pytest.raises(mtok.FormatError, match="holds tiktoken ranks"):
        export_legacy_txt(json_spec("gpt2"), legacy_type=1)
    with pytest.raises(mtok.FormatError, match="holds a BPE model, not WordPiece"):
        export_legacy_txt(json_spec("bert-base-uncased"), legacy_type=3, allow_loss=True)


# --- malformed files --------------------------------------------------------------

MALFORMED = [
    (b"430 7\n", 1, "first line must be '430 <type>'"),
    (b"430 1 \n0 0 0\n", 1, "first line must be"),
    (b"430 1\n1 0\n", 2, "expected 3 numbers"),
    (b"430 1\n1 x 0\n", 2, "decimal numbers"),
    (b"430 1\n1 0 0\n\n", 3, "holds 0 ids, the counts line says 1"),
    (b"430 1\n0 0 0\n\n", 4, "file ends where the vocab count line"),
    (b"430 1\n0 0 0\n\n2\nYQ==\n", 6, "file ends where token 1 was expected"),
    (b"430 1\n0 0 0\n\n1\n!!!\n", 5, "token 0: invalid base64"),
    (b"430 1\n0 0 0\n\n1\nYQ==\nYg==\n", 6, "unexpected line after the 1 vocab lines"),
    (b"430 1\n1 0 0\n7\n1\nYQ==\n", 3, "special id 7 has no token"),
    (b"430 0\n0 0 0\n\n1\nYQ== 0.0\n", 5, "expected 'base64 score type'"),
    (b"430 0\n0 0 0\n\n1\nYQ== zero 1\n", 5, "score b'zero' is not a number"),
    (b"430 0\n0 0 0\n\n1\nYQ== nan 1\n", 5, "score is NaN"),
    (b"430 0\n0 0 0\n\n1\nYQ== 0.0 7\n", 5, "type must be 1-6"),
    (b"430 0\n0 0 0\n\n1\n 0.0 1\n", 5, "piece 0 is empty"),
    (b"430 0\n0 0 0\n\n2\nYQ== 0 1\nYWI= 0 5\n", 6, "is UNUSED"),
    (b"430 2\n0 0 0\n\n1\n/w==\n", 5, "token 0 is not UTF-8"),
    (b"430 2\n0 0 0\n\n1\nYQ==\n", 4, "needs the token [UNK]"),
    (b"430 3\n0 0 0\n\n2 1\na\nb\na b\n", 7, "'ab' is not in the vocab"),
    (b"430 3\n0 0 0\n\n2 1\na\nb\nab\n", 7, "merge 0: expected two tokens"),
    (b"430 3\n0 0 0\n\n1 0\n\xff\n", 5, "token 0 is not UTF-8"),
    (b"430 3\n0 0 0\n\n1\na\n", 4, "expected 2 numbers"),
    (b"430 1\n0 0 0\n\n2\nYQ==\nYg==\n", None, "lack the single byte 0"),
]


@pytest.mark.parametrize("data, line, message", MALFORMED)
def test_malformed_files(data, line, message):
    kind = int(data[4:5]) if data[4:5].isdigit() else 0
    options = {"pattern": "gpt2"} if kind in (1, 3) else {}
    with pytest.raises(mtok.FormatError) as info:
        spec_from_mnn_txt(data, "bad.txt", **options)
    text = str(info.value)
    assert message in text, text
    if line is not None:
        assert text.startswith(f"bad.txt:{line}: "), text


def test_random_damage_raises_format_error_or_loads():
    """Cuts and byte flips of a small file: FormatError or a working tokenizer,
    never another exception."""
    lines = ["430 3", "1 1 0", "5 5 ", "6 2", "a", "b", "ab", "Ġ", "Ġab", "<|end|>", "a b", "Ġ ab"]
    good = ("\n".join(lines) + "\n").encode()
    spec_from_mnn_txt(good, "ok.txt", pattern="gpt2")
    rng = random.Random(7)
    cases = [good[:n] for n in range(len(good))]
    for _ in range(400):
        data = bytearray(good)
        data[rng.randrange(len(data))] = rng.choice(b"0123456789 \nab\xc4\xa0\xff=")
        cases.append(bytes(data))
    for data in cases:
        try:
            spec = spec_from_mnn_txt(data, "t.txt", pattern="gpt2")
        except mtok.FormatError:
            continue
        try:
            tok = mtok.Tokenizer.from_bytes(export_mtok(spec))
            tok.decode(tok.encode("ab abab <|end|> a"))
        except mtok.MtokError:
            continue


# --- command line -------------------------------------------------------------------


def run_cli(capsys, *args):
    from mtok.cli import main

    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_export_legacy_and_back(tmp_path, capsys):
    src = corpus.file_path("tokenizers", "llama3", "tokenizer.json")
    txt, out = tmp_path / "tokenizer.txt", tmp_path / "back.mtok"
    code, stdout, stderr = run_cli(capsys, "export", str(src), "--legacy-txt", "-o", str(txt))
    assert code == 0, stderr
    assert "load it with: --pattern llama3" in stdout
    assert "chat template" in stderr
    code, _, stderr = run_cli(capsys, "export", str(txt), "-o", str(out))
    assert code == 1 and "--pattern" in stderr
    code, _, stderr = run_cli(capsys, "export", str(txt), "--pattern", "llama3", "-o", str(out))
    assert code == 0, stderr
    ref, texts = hf("llama3"), sample()[:300]
    tok = mtok.Tokenizer.from_file(out)
    assert_same("llama3 via CLI", texts, [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)],
                ours(tok, texts))


def test_cli_refuses_a_lossy_legacy_file(tmp_path, capsys):
    src = corpus.file_path("tokenizers", "qwen3", "tokenizer.json")
    txt = tmp_path / "tokenizer.txt"
    code, _, stderr = run_cli(capsys, "export", str(src), "--legacy-txt", "-o", str(txt))
    assert code == 1 and "--allow-loss" in stderr and not txt.exists()
    code, stdout, stderr = run_cli(capsys, "export", str(src), "--legacy-txt", "--allow-loss", "-o", str(txt))
    assert code == 0 and "lost:" in stderr
    assert "--pattern qwen2" in stdout
