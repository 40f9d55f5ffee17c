"""Converter inputs the fuzzer (tests/fuzz/fuzz_convert.py) found to escape
as something other than mtok.MtokError. Each file in hostile/convert/ is
named for its damage; its extension is the input kind of convert_harness."""

import sys
from pathlib import Path

import pytest

import mtok

HERE = Path(__file__).parent / "hostile" / "convert"
sys.path.insert(0, str(Path(__file__).parents[1] / "fuzz"))
from convert_harness import FILE_NAMES, run_one  # noqa: E402

FILES = sorted(HERE.iterdir())


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fuzz_finding(path):
    kind = path.suffix[1:]
    assert kind in FILE_NAMES
    run_one(kind, path.read_bytes())  # loads, or fails with an MtokError only


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fuzz_finding_is_a_format_error(path):
    with pytest.raises(mtok.FormatError):
        mtok.Tokenizer.from_file(path)
