"""bench.callgrind._total_ir: the instruction count of a callgrind output
file: the header's summary (what callgrind_annotate reports), or, when
that is 0 (--instr-atstart=no), the file's last total."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # bench/ is a top-level package of the source tree

from bench.callgrind import _total_ir  # noqa: E402


def _file(tmp_path, text):
    p = tmp_path / "callgrind.out"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_the_last_total_wins(tmp_path):
    assert _total_ir(_file(tmp_path, "events: Ir\nsummary: 0\nfn=(1) f\n0 5\ntotals: 12149571\n")) == 12149571


def test_a_nonzero_summary_wins_over_the_totals(tmp_path):
    # A part dumped by callgrind_control -d: its totals line holds more.
    assert _total_ir(_file(tmp_path, "events: Ir\nsummary: 15567714\nfn=(1) f\n0 5\ntotals: 18381586\n")) == 15567714


def test_a_summary_alone_counts(tmp_path):
    assert _total_ir(_file(tmp_path, "events: Ir\nsummary: 4242\n")) == 4242


def test_no_total_is_an_error(tmp_path):
    with pytest.raises(RuntimeError, match="no instruction total"):
        _total_ir(_file(tmp_path, "events: Ir\n"))
