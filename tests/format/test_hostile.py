"""Truncated and corrupted .mtok files raise FormatError or load into a
tokenizer that works; nothing crashes or reads out of bounds."""

import random

import pytest

import mtok
from mtok.convert.export import export_mtok
from small_spec import small_spec

PROBES = ["hello world", "<s> x </s>", "", "\x00\xff", "日本語 text 123"]


def exercise(tok):
    for text in PROBES:
        ids = tok.encode(text)
        tok.decode(ids)
        tok.decode(ids, skip_special_tokens=True)
    tok.decode(list(range(0, 64)))


@pytest.fixture(scope="module")
def good():
    return export_mtok(small_spec())


def test_every_truncation(good):
    loaded = 0
    for n in range(len(good)):
        try:
            tok = mtok.Tokenizer.from_bytes(good[:n])
        except mtok.FormatError as e:
            assert " at byte " in str(e) or "header" in str(e), str(e)
            continue
        loaded += 1
        exercise(tok)
    # Only cuts inside the optional tail may load.
    assert loaded < len(good) // 4


def test_random_byte_flips(good):
    rng = random.Random(1234)
    for _ in range(3000):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            tok = mtok.Tokenizer.from_bytes(bytes(data))
        except mtok.FormatError:
            continue
        exercise(tok)


@pytest.mark.parametrize("data, message", [
    (b"", "no end of line"),
    (b"431 4\n0 0 0\n\n", "not an MNN tokenizer"),
    (b"430 4\n1 0 0\n\n", "ids line holds 0 ids"),
    (b"430 4\n0 0 0\n\n\x09", "unknown normalizer type 9"),
    (b"430 4\n0 0 0\n\n\x00\x00\x00\xff\xff\xff\x7f", "model at byte 20: unexpected end of file"),
    (b"430 4\n0 0 0\n\n\x00\x00\x00\xff\xff\xff\x7f\x00\x00\x00\x00\x00\x00", "run past the end"),
    (b"430 0\n0 0 0\n\n", "legacy text format"),
])
def test_messages_name_the_problem(data, message):
    with pytest.raises(mtok.FormatError, match=message):
        mtok.Tokenizer.from_bytes(data)


def test_huge_declared_lengths(good):
    # The added-token count field, set to 2^32 - 1.
    tok = mtok.Tokenizer.from_bytes(good)
    sections = {s["name"]: s for s in tok.inspect()["sections"]}
    at = sections["added_tokens"]["offset"]
    data = bytearray(good)
    data[at:at + 4] = b"\xff\xff\xff\xff"
    with pytest.raises(mtok.FormatError, match="added_tokens"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_huge_piece_count_in_a_sentencepiece_bpe_section():
    # A .model's BPE section read without VOFF/VHSH: its piece count, set
    # to 2^32 - 16, is checked against the bytes left before anything is
    # reserved for it.
    from mtok.convert import load_spec

    from corpus import file_path

    spec = load_spec(str(file_path("tokenizers", "llama2", "tokenizer.model")), native=True)
    section = spec["model"]["mtok_section"]
    data = bytearray(export_mtok(spec, accel=False))
    at = data.find(section)
    assert at > 0 and data[at] == 67  # SENTENCEPIECE_BPE: [u8 code][u32 pieces][u32 unk][u8 flags]
    data[at + 1:at + 5] = (2**32 - 16).to_bytes(4, "little")
    with pytest.raises(mtok.FormatError):
        mtok.Tokenizer.from_bytes(bytes(data))
