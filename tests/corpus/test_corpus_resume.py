"""Resuming: a killed job, rerun, gives the same bytes as a clean run; a
damaged or foreign shard is redone; the reader refuses unfinished output."""

import json
import os
import signal
import subprocess
import time

import pytest

import mtok.corpus
from mtok.corpus import CorpusError, JobOptions, parse_shard_size, tokenize_corpus

from corpus_helpers import CLI, cli_env, folder_digest, o200k, run_cli, subset_files

# Small shards so the job is still running well after its first shard.
ARGS = ("-t", "o200k_base", "--shard-size", "16KB", "--workers", "1", "--no-progress")


def _wait_for_first_marker(proc, out, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if out.is_dir() and any(p.suffix == ".done" for p in out.iterdir()):
            return
        if proc.poll() is not None:
            pytest.fail(f"job ended before its first shard: {proc.stderr.read()}")
        time.sleep(0.002)
    pytest.fail("no shard finished in time")


def test_killed_job_resumes_to_identical_output(tmp_path):
    files = subset_files()
    clean = tmp_path / "clean"
    run_cli("tokenize-corpus", *files, "-o", clean, *ARGS)

    out = tmp_path / "killed"
    proc = subprocess.Popen(CLI + ["tokenize-corpus", *files, "-o", str(out), *ARGS], env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_first_marker(proc, out)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    assert not (out / "manifest.json").exists(), "the job finished before it could be killed"
    with pytest.raises(CorpusError, match="no manifest.json"):
        mtok.corpus.open(out)
    markers = len([p for p in out.iterdir() if p.suffix == ".done"])
    total = len([p for p in clean.iterdir() if p.suffix == ".done"])
    assert 1 <= markers < total

    rerun = run_cli("tokenize-corpus", *files, "-o", out, *ARGS)
    assert "already done" in rerun.stderr
    assert not [p for p in out.iterdir() if ".tmp." in p.name]
    assert folder_digest(out) == folder_digest(clean)


def _job(files, out, **kw):
    return tokenize_corpus(files, o200k(), out, JobOptions(shard_size=parse_shard_size("64KB")),
                           show_progress=False, **kw)


def test_damaged_and_foreign_shards_are_redone(tmp_path):
    files = subset_files()[:3]
    out = tmp_path / "out"
    first = _job(files, out)
    want = folder_digest(out)
    assert first["shards"] >= 4

    # Flipped bytes in a finished shard: its marker's checksum no longer holds.
    with open(out / "shard-00001.bin", "r+b") as f:
        f.seek(8)
        f.write(b"\xff\xff")
    # A marker from another job.
    marker = json.loads((out / "shard-00002.done").read_text())
    marker["fingerprint"] = "0" * 64
    (out / "shard-00002.done").write_text(json.dumps(marker))
    # A torn write: data renamed into place, marker never written.
    os.unlink(out / "shard-00003.done")
    # A temp file left by a killed writer.
    (out / "shard-00000.bin.tmp.1.deadbeef").write_bytes(b"junk")

    second = _job(files, out)
    assert second["shards_resumed"] == first["shards"] - 3
    assert folder_digest(out) == want


def test_reader_refuses_inconsistent_output(tmp_path):
    files = subset_files()[:2]
    out = tmp_path / "out"
    _job(files, out)
    mtok.corpus.open(out, verify=True)

    with open(out / "shard-00000.bin", "r+b") as f:
        f.write(b"\x00\x00\x00\x01")
    mtok.corpus.open(out)  # sizes still agree: only verify reads the data
    with pytest.raises(CorpusError, match="sha256"):
        mtok.corpus.open(out, verify=True)

    with open(out / "shard-00001.bin", "ab") as f:
        f.write(b"\x00\x00\x00\x00")
    with pytest.raises(CorpusError, match="manifest says"):
        mtok.corpus.open(out)


def test_other_job_in_folder_is_refused(tmp_path):
    files = subset_files()[:2]
    out = tmp_path / "out"
    _job(files, out)
    with pytest.raises(CorpusError, match="different job.*sources"):
        _job(files[:1], out)
    summary = _job(files[:1], out, overwrite=True)
    assert summary["shards_resumed"] == 0
    assert len(mtok.corpus.open(out)) == summary["documents"]
