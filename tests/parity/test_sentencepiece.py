"""Parity with the sentencepiece library for .model files: encode(text)
ids, ids with BOS/EOS, and decode(ids), over every corpus line, paragraph
and 4096-character chunk."""

import pytest

import corpus
import mtok
from harness import assert_same

spm = pytest.importorskip("sentencepiece")

MODELS = ["t5-small/spiece.model", "llama2/tokenizer.model", "mistral/tokenizer.model.v1",
          "sentencepiece-test/test_model.model", "sentencepiece-test/test_ja_model.model"]


@pytest.fixture(scope="module", params=MODELS)
def pair(request):
    path = corpus.file_path("tokenizers", *request.param.split("/"))
    ref = spm.SentencePieceProcessor(model_file=str(path))
    return request.param, path, ref, mtok.Tokenizer.from_file(path)


def test_ids(pair):
    name, _, ref, ours = pair
    texts = list(corpus.parity_strings())
    assert_same(f"{name} ids", texts, ref.encode(texts), ours.encode_batch(texts))


def test_ids_bos_eos(pair):
    name, path, ref, _ = pair
    bos, eos = ref.bos_id() >= 0, ref.eos_id() >= 0
    ours = mtok.Tokenizer.from_file(path, add_bos=bos, add_eos=eos)
    texts = [t for t in corpus.parity_strings() if len(t) < 2000][:3000]
    expected = ref.encode(texts, add_bos=bos, add_eos=eos)
    assert_same(f"{name} ids bos={bos} eos={eos}", texts, expected, ours.encode_batch(texts))
    plain = ours.encode_batch(texts, add_special_tokens=False)
    assert_same(f"{name} ids without specials", texts, ref.encode(texts), plain)


def test_decode(pair):
    name, _, ref, ours = pair
    texts = list(corpus.parity_strings())
    ids = ref.encode(texts)
    assert_same(f"{name} decode", texts, ref.decode(ids), ours.decode_batch(ids))


def test_decode_control_and_unknown(pair):
    """Control pieces vanish, unk shows its surface, stray bytes become U+FFFD."""
    name, _, ref, ours = pair
    n = ref.get_piece_size()
    special = [i for i in range(n) if ref.is_control(i) or ref.is_unknown(i)]
    byte_ids = [i for i in range(n) if ref.is_byte(i)]
    cases = [special, special[::-1] + [5, 6], [5] + special + [6]]
    if byte_ids:
        cases += [byte_ids[0xE3:0xE4], byte_ids[0xE3:0xE4] + [5], byte_ids[0x41:0x43] + byte_ids[0xC3:0xC4]]
    cases += [list(range(i, min(n, i + 64))) for i in range(0, n, 997)]
    assert_same(f"{name} decode specials", cases, [ref.decode(c) for c in cases], ours.decode_batch(cases))
