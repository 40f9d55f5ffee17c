"""The benchmark harness itself: a --quick run on one small tokenizer with
mtok and tokenizers 0.23 only, whose ids must match (and whose tables,
JSON and plot come out)."""

import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # bench/ is a top-level package of the source tree


def test_quick_run_matches_reference(tmp_path):
    pytest.importorskip("tokenizers")
    from bench import corpus
    from bench.cli import run

    if not corpus.available():
        pytest.skip(f"corpus not found at {corpus.CORPUS} (set MTOK_CORPUS)")
    lines = []
    results = run(["--suite", "bpe", "--quick", "--tokenizers", "gpt2", "--libs", "mtok,tokenizers",
                   "--sizes", "128,512", "--parts", "sized,cold,cold-lang", "--out", str(tmp_path)],
                  log=lines.append)
    bpe = results["bpe"]
    for part in ("sized", "cold", "cold-lang"):
        rows = bpe[part]
        assert {r["lib"] for r in rows} == {"mtok", "tokenizers"}, (part, rows)
        assert all("error" not in r for r in rows), rows
        assert all(r["match"] is True for r in rows), (part, rows)
    from bench.texts import COLD_LANGUAGES

    assert {r["text"] for r in bpe["cold-lang"]} == set(COLD_LANGUAGES)
    sized = bpe["sized"]
    assert {r["size"] for r in sized} == {128, 512}
    assert all(r["p50_us"] > 0 and r["p99_us"] >= r["p50_us"] for r in sized)
    assert all(r["ratio"] == 1.0 for r in sized if r["lib"] == "mtok")
    assert any("ids match" in line for line in lines)  # the table was printed
    saved = json.loads((tmp_path / "bpe.json").read_text())
    assert saved["bpe"]["sized"]
    if any("saved" in line and line.endswith(".png") for line in lines):
        assert (tmp_path / "bpe.png").stat().st_size > 0
