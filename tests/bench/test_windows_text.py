"""The windows part's text: the mixed corpus text or one corpus file
(bench.texts.text_windows, `--text`), and the ratio column's base when
mtok-np ran alone (bench.traffic._ratios)."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # bench/ is a top-level package of the source tree

from bench import corpus  # noqa: E402
from bench.texts import text_windows, windows  # noqa: E402
from bench.traffic import _ratios  # noqa: E402

needs_corpus = pytest.mark.skipif(not corpus.available(),
                                  reason=f"corpus not found at {corpus.CORPUS} (set MTOK_CORPUS)")
SHORT = "fortunes/en_fortunes.txt"  # about 24 KB


@needs_corpus
def test_a_file_gives_warm_and_timed_windows_in_turns():
    text = corpus.file_path("text/" + SHORT).read_text(encoding="utf-8")
    warm, timed = text_windows(2048, 3, SHORT)
    cut = windows(2048, 6, text)
    assert warm == cut[0::2] and timed == cut[1::2]
    assert all(w in text for w in warm + timed)


@needs_corpus
def test_a_file_gives_as_many_pairs_as_it_holds():
    size = len(corpus.file_path("text/" + SHORT).read_bytes())
    warm, timed = text_windows(2048, 1000, SHORT)
    assert len(warm) == len(timed) == size // 4096


@needs_corpus
def test_a_file_too_short_for_the_size_is_a_clear_error():
    with pytest.raises(ValueError, match="too short for two windows of 65536 bytes"):
        text_windows(65536, 24, SHORT)


@needs_corpus
def test_a_missing_file_is_named():
    with pytest.raises(FileNotFoundError, match="no-such-file.txt"):
        text_windows(2048, 3, "no-such-file.txt")


@needs_corpus
def test_without_a_file_the_mixed_text_is_cut():
    warm, timed = text_windows(2048, 4)
    cut = windows(2048, 8)
    assert warm == cut[0::2] and timed == cut[1::2]


def test_ratios_take_mtok_np_as_base_when_mtok_did_not_run():
    cell = [{"lib": "mtok-np", "p50_us": 40.0}, {"lib": "fastokens", "p50_us": 30.0}]
    _ratios(cell, "p50_us", lower_is_better=True)
    assert [r["ratio"] for r in cell] == [1.0, 0.75]


def test_ratios_take_mtok_first():
    cell = [{"lib": "mtok-np", "p50_us": 40.0}, {"lib": "mtok", "p50_us": 20.0}, {"lib": "peer", "p50_us": 30.0}]
    _ratios(cell, "p50_us", lower_is_better=True)
    assert [r["ratio"] for r in cell] == [2.0, 1.0, 1.5]


@needs_corpus
def test_the_windows_part_cuts_from_the_given_file(tmp_path):
    pytest.importorskip("tokenizers")
    from bench.cli import run

    results = run(["--suite", "traffic", "--quick", "--tokenizers", "gpt2", "--libs", "mtok,tokenizers",
                   "--parts", "windows", "--text", SHORT, "--no-save", "--out", str(tmp_path)],
                  log=lambda line: None)
    rows = results["traffic"]["windows"]
    timed = [r for r in rows if "error" not in r]
    assert {(r["size"], r["kind"], r["lib"]) for r in timed} == {
        (2048, k, lib) for k in ("unique", "repeated") for lib in ("mtok", "tokenizers")}
    assert all(r["text"] == SHORT and r["match"] is True for r in timed)
    assert [r["size"] for r in rows if "error" in r] == [65536]  # the file holds no two windows of 64 KB
