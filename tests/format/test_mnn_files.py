""".mtok files written by MNN's own exporter (seed type codes only, NFC/NFD
as per-code-point tables, its post-processor program after BOS) load in
mtok and run as docs/format.md specifies: HF's ids where the file loses
nothing, and the format's documented meaning where it does."""

import json
import unicodedata

import pytest

import corpus
import mtok
from mnn_export import mnn_mtok, table_map

tokenizers = pytest.importorskip("tokenizers")

SAMPLE_STEP = 60


def sample():
    return list(corpus.parity_strings()[::SAMPLE_STEP])


def ours(tok, texts, special=False):
    return tok.encode_batch(texts, add_special_tokens=special)


def assert_same(name, texts, expected, actual):
    bad = [i for i, (e, a) in enumerate(zip(expected, actual)) if e != a]
    assert len(expected) == len(actual)
    assert not bad, (f"{name}: {len(bad)} of {len(texts)} differ; first {texts[bad[0]][:120]!r}: "
                     f"expected {expected[bad[0]][:12]} got {actual[bad[0]][:12]}")


def hf(path):
    ref = tokenizers.Tokenizer.from_file(str(path))
    ref.no_truncation()
    ref.no_padding()
    return ref


@pytest.fixture(scope="module")
def mnn_file(tmp_path_factory):
    """name -> (path of MNN's tokenizer.mtok, path of the source tokenizer.json)."""
    made = {}

    def make(name):
        if name not in made:
            src = corpus.file_path("tokenizers", name, "tokenizer.json")
            out = tmp_path_factory.mktemp(name) / "tokenizer.mtok"
            out.write_bytes(mnn_mtok(src))
            made[name] = out, src
        return made[name]
    return make


def test_gpt2_loses_nothing(mnn_file):
    path, src = mnn_file("gpt2")
    assert path.read_bytes().startswith(b"430 4\n1 1 0\n50256 50256\n")
    tok, ref, texts = mtok.Tokenizer.from_file(path), hf(src), sample()
    texts += ["<|endoftext|>", "a<|endoftext|> b"]
    for special in (False, True):
        expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=special)]
        assert_same(f"gpt2 MNN special={special}", texts, expected, ours(tok, texts, special))
    ids = [e.ids for e in ref.encode_batch(texts[:300])]
    direct = mtok.Tokenizer.from_file(src)
    assert tok.decode_batch(ids) == direct.decode_batch(ids)
    assert tok.stop_ids == [50256] and tok.special_ids == [50256]
    assert tok.eos_token == "<|endoftext|>"


def test_qwen3_nfc_becomes_a_code_point_table(mnn_file):
    """MNN writes NFC as a per-code-point table (type 6): nothing composes
    across code points. mtok runs the table as written, so ids equal HF's on
    the text mapped code point by code point with HF's NFC switched off."""
    path, src = mnn_file("qwen3")
    tok, ref, texts = mtok.Tokenizer.from_file(path), hf(src), sample()
    texts += ["e\u0301t\u00e9 \u212b \ufb01 caf\u00e9", "\uac00\u11a8 \u1100\u1161"]
    raw = hf(src)
    raw.normalizer = tokenizers.normalizers.Sequence([])
    per_code_point = table_map("NFC")
    expected = [e.ids for e in raw.encode_batch([per_code_point(t) for t in texts], add_special_tokens=False)]
    assert_same("qwen3 MNN (table semantics)", texts, expected, ours(tok, texts))
    # Where the table and real NFC agree (all but decomposed input), HF's ids.
    same = [t for t in texts if per_code_point(t) == unicodedata.normalize("NFC", t)]
    assert len(same) > len(texts) * 0.9
    expected = [e.ids for e in ref.encode_batch(same, add_special_tokens=False)]
    assert_same("qwen3 MNN vs HF", same, expected, ours(tok, same))
    # The loss itself: "e" + U+0301 stays two code points instead of "é".
    assert tok.encode("e\u0301", add_special_tokens=False) != ref.encode("e\u0301", add_special_tokens=False).ids
    # Non-special added tokens keep their flag in the added-token section.
    assert not tok.is_special(tok.token_to_id("<tool_call>"))
    assert tok.chat_template and tok.eos_token == "<|im_end|>"


def test_bert_program_and_nfd_table(mnn_file):
    """BertNormalizer with accent stripping becomes type 7 + an NFD table;
    the [CLS] ... [SEP] template survives as MNN's program after BOS (the
    pair template does not)."""
    path, src = mnn_file("bert-base-uncased")
    info = mtok.Tokenizer.from_file(path).inspect()
    assert any(s["name"] == "post_program" for s in info["sections"])
    tok, ref, texts = mtok.Tokenizer.from_file(path), hf(src), sample()
    texts += ["Héllo Wörld Ångström", "ﬁne Ⅻ 東京 Straße"]
    for special in (False, True):
        expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=special)]
        assert_same(f"bert MNN special={special}", texts, expected, ours(tok, texts, special))
    assert tok.encode("hi")[0] == 101 and tok.encode("hi")[-1] == 102
    ids = [e.ids for e in ref.encode_batch(texts[:300])]
    assert tok.decode_batch(ids, skip_special_tokens=True) == ref.decode_batch(ids)


def test_mnn_drops_regex_replace_and_maps_whitespace_split(tmp_path):
    """Two documented losses of MNN's exporter: a Regex Replace is written
    with an empty pattern (it does nothing), and WhitespaceSplit becomes
    Split("\\s+", Removed), which splits the same way."""
    src = corpus.file_path("tokenizers", "gpt2", "tokenizer.json")
    tj = json.loads(src.read_text(encoding="utf-8"))
    tj["normalizer"] = {"type": "Replace", "pattern": {"Regex": "[0-9]"}, "content": "#"}
    tj["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "WhitespaceSplit"},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}]}
    tj["truncation"] = None
    folder = tmp_path / "custom"
    folder.mkdir()
    (folder / "tokenizer.json").write_text(json.dumps(tj), encoding="utf-8")
    (folder / "tokenizer.mtok").write_bytes(mnn_mtok(folder / "tokenizer.json"))
    tok = mtok.Tokenizer.from_file(folder / "tokenizer.mtok")
    raw = hf(folder / "tokenizer.json")
    texts = sample()[:400] + ["route 66 and 1\u00a02  3\n\t4"]
    assert tok.encode("a1", add_special_tokens=False) != raw.encode("a1", add_special_tokens=False).ids
    raw.normalizer = tokenizers.normalizers.Sequence([])
    expected = [e.ids for e in raw.encode_batch(texts, add_special_tokens=False)]
    assert_same("WhitespaceSplit as Split", texts, expected, ours(tok, texts))
