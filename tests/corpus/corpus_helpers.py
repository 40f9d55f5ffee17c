"""Shared pieces of the corpus-tokenization tests: a small multilingual
input set, the CLI in a subprocess, and comparisons of output folders."""

import functools
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import corpus
import mtok

# A multilingual subset that keeps the suite fast on 2 cores (about 1.3 MB).
SUBSET = (
    "debian-handbook/en-US.txt",
    "debian-handbook/ja-JP.txt",
    "debian-handbook/ru-RU.txt",
    "debian-handbook/ar-MA.txt",
    "fortunes/zh_tang300.txt",
    "emoji/emoji-zwj-sequences.txt",
    "code/byte_level.rs",
)

SRC = Path(os.path.abspath(mtok.__file__)).parents[1]


def subset_files() -> list:
    """Paths of the subset; skips the test when the corpus is absent."""
    return [str(corpus.require("text", *name.split("/"))) for name in SUBSET]


@functools.lru_cache(maxsize=None)
def o200k():
    return mtok.get_encoding("o200k_base")._tokenizer


def line_documents(paths) -> list:
    """The documents of text files read one per line, as the job defines
    them: split on \\n, a trailing \\r dropped, empty lines skipped."""
    docs = []
    for p in paths:
        data = Path(p).read_bytes()
        lines = data.split(b"\n")
        if data.endswith(b"\n"):
            lines.pop()
        for raw in lines:
            raw = raw[:-1] if raw.endswith(b"\r") else raw
            if raw:
                docs.append(raw.decode("utf-8"))
    return docs


def cli_env() -> dict:
    """The environment for subprocesses (and Dask workers) to import mtok."""
    env = dict(os.environ)
    parts = [str(SRC)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env


CLI = [sys.executable, "-c", "import sys, mtok.cli; sys.exit(mtok.cli.main())"]


def run_cli(*args, check=True) -> subprocess.CompletedProcess:
    """Runs `mtok ARGS` in a subprocess; returns it with text output."""
    proc = subprocess.run(CLI + [str(a) for a in args], env=cli_env(), capture_output=True,
                          text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"mtok {' '.join(map(str, args))} failed:\n{proc.stderr}")
    return proc


def folder_digest(folder) -> dict:
    """sha256 of every output file (shards, markers, manifest, job.json),
    by name; temp files and the lock are left out."""
    out = {}
    for p in sorted(Path(folder).iterdir()):
        if p.name == ".lock":
            continue
        out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out
