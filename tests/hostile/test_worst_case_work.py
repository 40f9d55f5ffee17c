"""Worst cases take work linear in their size: the same kind of input at
64 KB and 256 KB (4x) must take at most 5x the instructions. Quadratic
work gives 16x.

The instructions are counted by valgrind's callgrind, so the figures are
the same on a busy machine as on an idle one: a clock measured the cache
misses of a 12 MB symbol array and the other jobs on 2 shared cores as
much as the algorithm, and failed at 6x for linear code. Cache effects on
speed are measured in bench/, not here.

Most inputs are one long pre-token (o200k splits random letters by case),
merged by ByteBpe's MergeQueue in linear time; Unigram's lattice and
WordPiece's longest match see one long word."""

import json
import random
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

import corpus
import mtok
from hooks_module import hooks

SMALL, LARGE = 64 * 1024, 256 * 1024
# Linear work gives 4x (a pass over a cache grown a step further, or over
# a piece split once more, moves it a little), n log n 4.5x, quadratic 16x.
MAX_RATIO = 5.0

FAMILIES = {
    "gpt2": "gpt2",
    "llama3": "llama3",
    "o200k": "gpt-4o-o200k-hf",
    "mistral": "mistral-7b-v0.1",  # BPE over characters with byte fallback
    "xlm-roberta": "xlm-roberta",  # Unigram
    "bert": "bert-base-uncased",  # WordPiece
}


def one_char(n, seed=0):
    return "a" * n


def random_letters(n, seed=0):
    # A new text per run (seed): o200k splits these into short pre-tokens,
    # and a text seen before would count the pre-token cache, not the merges.
    rng = random.Random(n * 1000 + seed)
    return "".join(rng.choices(string.ascii_letters, k=n))


def spaces(n, seed=0):
    return " " * n


def mixed_whitespace(n, seed=0):
    return (" \t \n\r\n  " * (n // 8 + 1))[:n]


def cjk(n, seed=0):
    rng = random.Random(n * 1000 + seed)
    return "".join(chr(rng.randrange(0x4E00, 0x9FA6)) for _ in range(n // 3))


INPUTS = {f.__name__: f for f in (one_char, random_letters, spaces, mixed_whitespace, cjk)}


def count_instructions(path, jobs, tmp_path):
    """{label: instructions} for each job's encode, from one callgrind run."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        pytest.skip("valgrind is not installed (apt-get install valgrind): it counts the instructions")
    testing = hooks()
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({
        "sys_path": [str(Path(testing.__file__).parent)] + [p for p in sys.path if p],
        "path": str(path), "jobs": jobs}))
    out = tmp_path / "callgrind.out"
    cmd = [valgrind, "--tool=callgrind", "--instr-atstart=no",
           f"--callgrind-out-file={out}", sys.executable, str(Path(__file__).with_name("count_instructions.py")),
           str(spec)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    counts = {}
    for dump in tmp_path.glob("callgrind.out.*"):
        text = dump.read_text()
        label = text.split("Client Request: ", 1)[1].split("\n", 1)[0] if "Client Request: " in text else None
        if label is not None:
            counts[label] = int(text.split("\ntotals: ", 1)[1].split("\n", 1)[0])
    assert set(counts) == {job["label"] for job in jobs}, proc.stderr[-3000:]
    return counts


@pytest.mark.parametrize("family", list(FAMILIES))
def test_linear_work(family, tmp_path):
    tok = mtok.Tokenizer.from_file(corpus.file_path("tokenizers", FAMILIES[family], "tokenizer.json"))
    path = tmp_path / f"{family}.mtok"
    tok.save(path)  # the child loads in milliseconds what took seconds to convert
    jobs = [{"label": f"{kind} {size}", "warm": make(size, 0), "text": make(size, 1)}
            for kind, make in INPUTS.items() for size in (SMALL, LARGE)]
    counts = count_instructions(path, jobs, tmp_path)
    for kind in INPUTS:
        small, large = counts[f"{kind} {SMALL}"], counts[f"{kind} {LARGE}"]
        assert large <= MAX_RATIO * small, \
            f"{family} {kind}: {small:,} instructions at 64 KB, {large:,} at 256 KB ({large / small:.2f}x)"
