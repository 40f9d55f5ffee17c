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


def test_quick_traffic_run_matches_reference(tmp_path):
    """The traffic suite's six parts, quick, on gpt2 with mtok and
    tokenizers 0.23 (which also proves the file's own truncation is off
    on both sides: gpt2's file truncates at 50 tokens)."""
    pytest.importorskip("tokenizers")
    from bench import corpus
    from bench.cli import run

    if not corpus.available():
        pytest.skip(f"corpus not found at {corpus.CORPUS} (set MTOK_CORPUS)")
    results = run(["--suite", "traffic", "--quick", "--tokenizers", "gpt2", "--libs", "mtok,tokenizers",
                   "--memory-mb", "1", "--out", str(tmp_path)], log=lambda line: None)
    traffic = results["traffic"]
    for part in ("windows", "corpus", "long", "long-warm", "memory", "first-seen"):
        rows = traffic[part]
        assert {r["lib"] for r in rows} == {"mtok", "tokenizers"}, (part, rows)
        assert all("error" not in r for r in rows), rows
    for part in ("windows", "corpus", "long", "long-warm", "first-seen"):
        assert all(r["match"] is True for r in traffic[part]), (part, traffic[part])
    windows = traffic["windows"]
    assert {(r["size"], r["kind"]) for r in windows} == {(s, k) for s in (2048, 65536) for k in ("unique", "repeated")}
    assert all(r["p99_us"] >= r["p50_us"] > 0 and r["mean_us"] > 0 for r in windows)
    corpus_rows = traffic["corpus"]
    assert {r["threads"] for r in corpus_rows} == {1, 2}
    assert all(r["cold_mb_s"] > 0 and r["second_mb_s"] > 0 and r["batch_mb_s"] > 0 for r in corpus_rows)
    assert all("speedup" in r for part in ("long", "long-warm") for r in traffic[part] if r["threads"] == 2)
    assert all(r["peak_growth_mb"] >= 0 for r in traffic["memory"])
    first_seen = traffic["first-seen"]
    assert {r["class"] for r in first_seen} == {"2-7", "8-15", "16-47", "48+"}
    assert all(r["us_per_piece"] > 0 and r["pieces"] > 0 for r in first_seen)
    assert json.loads((tmp_path / "traffic.json").read_text())["traffic"]["windows"]


def test_workers_run_every_library_on_one_thread_unless_asked():
    """Each library reads its own knob: rayon's pool, mtok's pool, and
    fastokens' fan-out (FASTOKENS_BPE_THREADS, which RAYON_NUM_THREADS does
    not reach: left alone, it encodes one input of 64 KiB on every core).
    A part that gives no environment gets one thread for all of them."""
    from unittest import mock

    from bench import subproc, traffic

    for n in (1, 2):
        env = traffic.thread_env(n)
        for knob in ("RAYON_NUM_THREADS", "MTOK_NUM_THREADS", "FASTOKENS_BPE_THREADS"):
            assert env[knob] == str(n), (knob, env)
    seen = []
    fake = lambda job, env=None, python=None: seen.append(env) or {"ok": True}
    spec = mock.Mock(to_dict=lambda: {})
    peer = mock.Mock(remote=False, supports=lambda s: True)
    peer.name = "x"
    with mock.patch.object(subproc, "run_job", fake):
        traffic.fresh_rounds(spec, [peer], {"job": "windows"}, 1, log=lambda line: None)
        traffic.fresh_rounds(spec, [peer], {"job": "corpus"}, 1, env=traffic.thread_env(2), log=lambda line: None)
    assert seen == [traffic.thread_env(1), traffic.thread_env(2)]


def test_gc_paused_turns_the_collector_off_and_back():
    import gc

    from bench.timing import gc_paused

    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled(), "a collector the caller turned off stays off"
    finally:
        gc.enable()
