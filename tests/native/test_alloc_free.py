"""A warm ids encode allocates nothing: tests/native/alloc_free_encode.cc
counts every malloc (operator new included) around 1,000 encodes of real
multilingual text with one reused ids vector, after two warm-up passes.

The program is built here with CMake from the same sources as the
extension (the core only), into build/native."""

import subprocess

import pytest

import corpus
import mtok
from native_build import build_native_target

LANGS = ("en-US", "ru-RU", "zh-CN", "ar-MA", "vi-VN", "ja-JP")


@pytest.fixture(scope="module")
def program():
    return build_native_target("alloc_free_encode")


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    """Lines of several languages, plus a few long paragraphs, in one file."""
    out = []
    for lang in LANGS:
        text = corpus.file_path("text", "debian-handbook", f"{lang}.txt").read_text(encoding="utf-8")
        rows = [r for r in text.splitlines() if r.strip()]
        out += rows[:300]
        out += [" ".join(rows[300 + 20 * k:320 + 20 * k]) for k in range(3)]
    path = tmp_path_factory.mktemp("alloc") / "lines.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def count(program, tok_dir, name, lines, encodes=1000):
    src = corpus.file_path("tokenizers", name, "tokenizer.json")
    path = tok_dir / f"{name}.mtok"
    mtok.Tokenizer.from_file(src).save(path)
    run = subprocess.run([str(program), str(path), str(lines), str(encodes)], capture_output=True, text=True)
    assert run.returncode in (0, 1), f"{name}: {run.stderr}"
    return int(run.stdout.split()[0]), run.stdout.strip()


# Unigram through the fused Metaspace route, byte-level BPE through its
# scanner route, WordPiece through the fused Bert route. (The BPE word route
# of SentencePiece-style BPE, mistral and gemma3, still allocates: the
# model's symbols on a cache miss, the general pre-tokenizer's pieces.)
@pytest.mark.parametrize("name", ["xlm-roberta", "t5-small", "gpt-4o-o200k-hf", "llama3", "bert-base-uncased"])
def test_warm_encode_allocates_nothing(program, lines, tmp_path, name):
    n, report = count(program, tmp_path, name, lines)
    assert n == 0, f"{name}: {report}"


def test_counter_sees_allocations(program, lines, tmp_path):
    # gemma3's pre-tokenizer (a Split on " ") runs as a general stage inside
    # the BPE word route, which builds its pieces per call: the counter
    # must see them, or the zeros above prove nothing.
    n, report = count(program, tmp_path, "gemma3", lines, encodes=50)
    assert n > 0, report
