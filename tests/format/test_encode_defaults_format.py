"""The TRUN and PADS trailer sections: written from a spec's truncation and
padding, refused with FormatError when a value is corrupt."""

import struct

import pytest

import mtok
from mtok.convert.export import export_mtok
from small_spec import small_spec

TRUNCATION = {"max_length": 9, "stride": 2, "strategy": "OnlySecond", "direction": "Left"}
PADDING = {"strategy": {"Fixed": 12}, "direction": "Left", "pad_to_multiple_of": 4, "pad_id": 3,
           "pad_type_id": 1, "pad_token": "<pad>"}


def spec_with(truncation=TRUNCATION, padding=PADDING):
    spec = small_spec()
    spec["truncation"], spec["padding"] = truncation, padding
    return spec


def section(data, name):
    """(offset, size) of a trailer section."""
    info = mtok.Tokenizer.from_bytes(data).inspect()
    (found,) = [(s["offset"], s["size"]) for s in info["sections"] if s["name"] == name]
    return found


def patched(data, offset, raw):
    return data[:offset] + raw + data[offset + len(raw):]


def test_sections_round_trip():
    data = export_mtok(spec_with())
    tok = mtok.Tokenizer.from_bytes(data)
    assert tok.truncation == {"max_length": 9, "stride": 2, "strategy": "only_second", "direction": "left"}
    assert tok.padding == {"length": 12, "pad_to_multiple_of": 4, "pad_id": 3, "pad_token": "<pad>",
                           "pad_type_id": 1, "direction": "left"}
    assert section(data, "TRUN")[1] == 18
    plain = mtok.Tokenizer.from_bytes(export_mtok(small_spec()))
    assert plain.truncation is None and plain.padding is None
    assert not [s for s in plain.inspect()["sections"] if s["name"] in ("TRUN", "PADS")]


# (section, byte offset in its payload, bytes written there, expected message)
CORRUPTIONS = [
    ("TRUN", 16, b"\x03", "unknown truncation strategy 3"),
    ("TRUN", 17, b"\x02", "unknown truncation direction 2"),
    ("PADS", 0, b"\x05", "unknown padding direction 5"),
    ("PADS", 1, b"\x08", "unknown padding flags 8"),
    ("PADS", 1, b"\x02", "padding length 12 without the fixed-length flag"),
    ("PADS", 1, b"\x01", "pad_to_multiple_of 4 without its flag"),
    ("PADS", 28, b"\xff", "pad_token"),
    ("PADS", 26, struct.pack("<H", 9), "runs past the end"),
    ("PADS", 26, struct.pack("<H", 2), "unread bytes"),
]


@pytest.mark.parametrize("name,at,raw,message", CORRUPTIONS, ids=[c[3][:30] for c in CORRUPTIONS])
def test_corrupt_values_raise(name, at, raw, message):
    data = export_mtok(spec_with())
    offset, _ = section(data, name)
    with pytest.raises(mtok.FormatError, match=message):
        mtok.Tokenizer.from_bytes(patched(data, offset + at, raw))


@pytest.mark.parametrize("field,value", [
    ("truncation", {"max_length": 5, "stride": 0, "strategy": "Shortest"}),
    ("truncation", {"max_length": -1, "stride": 0, "strategy": "LongestFirst"}),
    ("truncation", {"stride": 0, "strategy": "LongestFirst"}),
    ("truncation", [5]),
    ("padding", dict(PADDING, strategy={"Fixed": "x"})),
    ("padding", dict(PADDING, strategy="Longest")),
    ("padding", dict(PADDING, direction="Up")),
    ("padding", dict(PADDING, pad_id=2**32)),
    ("padding", {k: v for k, v in PADDING.items() if k != "pad_token"}),
])
def test_writer_refuses_bad_settings(field, value):
    spec = spec_with()
    spec[field] = value
    with pytest.raises(mtok.FormatError, match=field):
        export_mtok(spec)
