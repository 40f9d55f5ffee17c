"""Every file in tests/format/hostile/ raises FormatError with its exact
message (make_hostile.py holds the messages and regenerates the files)."""

import pytest

import mtok
from make_hostile import HERE, REGRESSIONS, cases

CASES = {name: (data, message) for name, data, message in cases()}
for _name, _message in REGRESSIONS.items():
    CASES[_name] = ((HERE / f"{_name}.mtok").read_bytes(), _message)


def test_every_file_has_a_message():
    on_disk = {p.stem for p in HERE.glob("*.mtok")}
    assert on_disk == set(CASES), "run tests/format/make_hostile.py, or add the file to REGRESSIONS"


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_file(name):
    data, message = CASES[name]
    assert (HERE / f"{name}.mtok").read_bytes() == data, "stale file: run tests/format/make_hostile.py"
    with pytest.raises(mtok.FormatError) as info:
        mtok.Tokenizer.from_bytes(data)
    assert str(info.value) == message


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_file_mapped(name):
    # The same through mmap, where the file ends exactly at the mapping's end.
    data, message = CASES[name]
    with pytest.raises(mtok.FormatError) as info:
        mtok.Tokenizer.from_file(HERE / f"{name}.mtok")
    if data.startswith(b"430 4\n"):  # otherwise content detection refuses it first
        assert str(info.value) == message
