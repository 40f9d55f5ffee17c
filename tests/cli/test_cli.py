"""The mtok command line: export, encode, decode, inspect, chat."""

import json

import pytest

import corpus
import mtok
from mtok.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_export_inspect_encode_decode(tmp_path, capsys):
    src = corpus.file_path("tokenizers", "gpt2", "tokenizer.json")
    out = tmp_path / "gpt2.mtok"
    code, text, _ = run(capsys, "export", str(src), "-o", str(out))
    assert code == 0 and out.exists() and "wrote" in text

    code, text, _ = run(capsys, "inspect", str(out))
    assert code == 0
    for word in ("430 4", "model: BPE", "normalizer", "pre_tokenizer", "added_tokens", "chat template"):
        assert word in text

    code, text, _ = run(capsys, "encode", "-t", str(out), "Hello world")
    ids = [int(x) for x in text.split()]
    assert ids == mtok.Tokenizer.from_file(out).encode("Hello world")

    code, text, _ = run(capsys, "decode", "-t", str(out), *map(str, ids))
    assert text == "Hello world\n"

    code, text, _ = run(capsys, "encode", "-t", str(out), "Hello world", "--show")
    assert "Hello" in text and f"{len(ids)} tokens" in text


def test_default_tokenizer_is_o200k(capsys):
    code, text, _ = run(capsys, "encode", "hello world")
    assert [int(x) for x in text.split()] == mtok.get_encoding("o200k_base").encode("hello world")


def test_encode_file(tmp_path, capsys):
    f = tmp_path / "t.txt"
    f.write_text("one two three", encoding="utf-8")
    code, text, _ = run(capsys, "encode", "-f", str(f))
    assert code == 0 and len(text.split()) == 3


def test_errors_are_reported_not_raised(tmp_path, capsys):
    bad = tmp_path / "bad.mtok"
    bad.write_bytes(b"430 4\n0 0 0\n\n\x09")
    code, _, err = run(capsys, "inspect", str(bad))
    assert code == 1 and "unknown normalizer type 9" in err


def test_chat(tmp_path, capsys):
    folder = corpus.file_path("tokenizers", "qwen3", "tokenizer.json").parent
    out = tmp_path / "qwen3.mtok"
    run(capsys, "export", str(folder), "-o", str(out))
    msgs = tmp_path / "m.json"
    msgs.write_text(json.dumps([{"role": "user", "content": "Hi"}]), encoding="utf-8")
    code, text, _ = run(capsys, "chat", "-t", str(out), "--messages", str(msgs), "--add-generation-prompt")
    assert code == 0 and "<|im_start|>user\nHi<|im_end|>" in text and text.endswith("<|im_start|>assistant\n")
    code, ids, _ = run(capsys, "chat", "-t", str(out), "--messages", str(msgs), "--ids")
    tok = mtok.Tokenizer.from_file(out)
    assert [int(x) for x in ids.split()] == tok.apply_chat_template(
        [{"role": "user", "content": "Hi"}], tokenize=True)


def test_inspect_runtime(tmp_path, capsys):
    """--runtime loads the file and prints how it runs."""
    src = corpus.file_path("tokenizers", "t5-small", "tokenizer.json")
    out = tmp_path / "t5.mtok"
    assert run(capsys, "export", str(src), "-o", str(out))[0] == 0
    code, text, _ = run(capsys, "inspect", str(out), "--runtime")
    assert code == 0
    assert "runtime:" in text
    assert "ids_route: Precompiled and Metaspace fused, straight to the model" in text
    assert "unigram_trie_source: mapped from the file (UTRI)" in text
