"""Inputs the fuzzers (tests/fuzz/) found to break a promise: each file in
hostile/fuzz/ is named for its damage, and its extension is its input kind
in convert_harness, which loads it and, when it loads, encodes and decodes.
Only mtok.MtokError may escape, and strings must be valid UTF-8."""

import sys
from pathlib import Path

import pytest

import mtok

HERE = Path(__file__).parent / "hostile" / "fuzz"
sys.path.insert(0, str(Path(__file__).parents[1] / "fuzz"))
from convert_harness import FILE_NAMES, run_one  # noqa: E402

FILES = sorted(HERE.iterdir())
# Files that must fail to load; the others load and must then work.
FORMAT_ERRORS = {"post_processor_special_without_ids.json"}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fuzz_finding(path):
    kind = path.suffix[1:]
    assert kind in FILE_NAMES
    if path.name in FORMAT_ERRORS:
        with pytest.raises(mtok.FormatError):
            mtok.Tokenizer.from_file(path)
    run_one(kind, path.read_bytes())


def test_mapped_vocab_record_that_is_not_utf8():
    # VOFF pointed id 62 into the middle of another record, at bytes that
    # are not UTF-8: id_to_token raised RuntimeError and decode returned
    # invalid UTF-8. Such a record now names no token, like an unknown id.
    tok = mtok.Tokenizer.from_file(HERE / "mapped_vocab_offset_mid_record.mtok")
    assert tok.id_to_token(62) is None
    assert tok.decode([62]) == ""
