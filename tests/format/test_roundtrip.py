"""Writing is deterministic, and .mtok files load to the same tokenizer."""

import json

import pytest

import corpus
import mtok
from mtok.convert import to_mtok_bytes
from mtok.convert.export import export_mtok
from small_spec import small_spec

SAMPLE = ["Hello world!", "héllo\twörld", "<s>hello </s> world", "", "  spaces   ", "数字 123"]


def test_writing_twice_gives_identical_bytes():
    assert export_mtok(small_spec()) == export_mtok(small_spec())


def test_saved_file_loads_identically(tmp_path):
    tok = mtok.Tokenizer.from_bytes(export_mtok(small_spec()))
    path = tmp_path / "small.mtok"
    tok.save(path)
    again = mtok.Tokenizer.from_file(path)
    assert again.to_bytes() == tok.to_bytes()
    for text in SAMPLE:
        assert again.encode(text) == tok.encode(text)


def test_small_tokenizer_matches_hf():
    """The hand-made spec is valid tokenizer.json: HF gives the same ids."""
    tokenizers = pytest.importorskip("tokenizers")
    spec = small_spec()
    ref = tokenizers.Tokenizer.from_str(json.dumps({k: v for k, v in spec.items() if k != "mtok"}))
    tok = mtok.Tokenizer.from_bytes(export_mtok(spec))
    for text in SAMPLE + ["hello world", "hell\to world </s>x"]:
        for special in (True, False):
            assert tok.encode(text, add_special_tokens=special) == ref.encode(text, add_special_tokens=special).ids, text
        ids = ref.encode(text).ids
        assert tok.decode(ids) == ref.decode(ids, skip_special_tokens=False)
        assert tok.decode(ids, skip_special_tokens=True) == ref.decode(ids, skip_special_tokens=True)


def test_small_tokenizer_metadata():
    tok = mtok.Tokenizer.from_bytes(export_mtok(small_spec()))
    assert tok.encode("hello", add_special_tokens=True)[0] == tok.token_to_id("<s>")
    assert tok.decode(tok.encode("hello world")) == "<s>hello world"
    assert tok.decode(tok.encode("hello world"), skip_special_tokens=True) == "hello world"
    assert tok.stop_ids == [tok.token_to_id("</s>")]
    assert tok.eos_token == "</s>"


@pytest.mark.parametrize("name", ["gpt2", "llama3", "qwen3", "gpt-4o-o200k-hf"])
def test_json_and_mtok_agree(name, tmp_path):
    src = corpus.file_path("tokenizers", name, "tokenizer.json")
    data = to_mtok_bytes(str(src))
    assert to_mtok_bytes(str(src)) == data, "conversion is not deterministic"
    out = tmp_path / f"{name}.mtok"
    out.write_bytes(data)
    direct = mtok.Tokenizer.from_file(src)
    mapped = mtok.Tokenizer.from_file(out)
    assert mapped.to_bytes() == data
    texts = list(corpus.parity_strings()[::50])
    assert mapped.encode_batch(texts) == direct.encode_batch(texts)
