"""Malformed input records are reported with file:line, and refused or
skipped and counted per --on-error; never dropped silently."""

import json

import pytest

import mtok.corpus
from mtok.corpus import JobOptions, RecordError, tokenize_corpus

from corpus_helpers import o200k, run_cli

LINES = [
    '{"text": "first document"}',
    '{"text": 5}',                        # 2: not a string
    'not json at all',                    # 3: invalid JSON
    '',                                   # 4: blank, skipped as empty
    '{"title": "no text"}',               # 5: missing field
    '["a", "list"]',                      # 6: not an object
    '{"text": "caf\\u00e9 \\ud800"}',     # lone surrogate: U+FFFD, like tok.encode
    '{"text": ""}',                       # an empty document is still a document
    '{"text": "last, no newline"}',
]
BAD = {2: "is int, not a string", 3: "invalid JSON", 5: "no field 'text'", 6: "expected a JSON object"}


@pytest.fixture
def jsonl(tmp_path):
    path = tmp_path / "in.jsonl"
    # Line 10 holds a byte that is not UTF-8; the file ends without a newline.
    path.write_bytes("\n".join(LINES).encode() + b'\n{"text": "bad utf8 \xff"}')
    return path


def test_fail_reports_first_bad_line(jsonl, tmp_path):
    out = tmp_path / "out"
    proc = run_cli("tokenize-corpus", jsonl, "-o", out, "--no-progress", check=False)
    assert proc.returncode == 1
    assert f"{jsonl}:2: field 'text' is int, not a string" in proc.stderr
    assert not (out / "manifest.json").exists()
    with pytest.raises(RecordError) as info:
        tokenize_corpus([jsonl], o200k(), tmp_path / "api", show_progress=False)
    assert info.value.where == f"{jsonl}:2"


def test_skip_reports_every_bad_line_and_counts_them(jsonl, tmp_path):
    out = tmp_path / "out"
    proc = run_cli("tokenize-corpus", jsonl, "-o", out, "--on-error", "skip", "--no-progress")
    for line, message in BAD.items():
        assert f"{jsonl}:{line}: " in proc.stderr and message in proc.stderr
    assert f"{jsonl}:10: invalid UTF-8" in proc.stderr
    assert "5 malformed records skipped" in proc.stderr

    ds = mtok.corpus.open(out)
    tok = o200k()
    good = [json.loads(LINES[i])["text"] for i in (0, 6, 7, 8)]
    assert [d.tolist() for d in ds] == [tok.encode(t, add_special_tokens=False) for t in good]
    m = ds.manifest
    assert m["malformed_records"]["count"] == 5
    assert [e.split(": ")[0] for e in m["malformed_records"]["first"]] == \
        [f"{jsonl}:{n}" for n in (2, 3, 5, 6, 10)]
    assert m["empty_records_skipped"] == 1


def test_text_with_bad_utf8_and_missing_eos(tmp_path):
    src = tmp_path / "in.txt"
    src.write_bytes(b"good line\r\nbad \xc3 line\n\nanother\n")
    with pytest.raises(RecordError, match=r"in.txt:2: invalid UTF-8"):
        tokenize_corpus([src], o200k(), tmp_path / "a", show_progress=False)
    tokenize_corpus([src], o200k(), tmp_path / "b", JobOptions(on_error="skip"), show_progress=False)
    ds = mtok.corpus.open(tmp_path / "b")
    assert [d.tolist() for d in ds] == [o200k().encode(t, add_special_tokens=False)
                                        for t in ("good line", "another")]


def test_bad_arguments_are_clear(tmp_path):
    proc = run_cli("tokenize-corpus", tmp_path / "missing.txt", "-o", tmp_path / "o", check=False)
    assert proc.returncode == 1 and "no such file or folder" in proc.stderr
    src = tmp_path / "a.txt"
    src.write_text("x\n")
    proc = run_cli("tokenize-corpus", src, "-o", tmp_path / "o", "--shard-size", "12 parsecs", check=False)
    assert proc.returncode == 1 and "--shard-size" in proc.stderr
