"""The short-token table of byte-level BPE as a file section (BSHT,
cpp/src/models/bpe/short_tokens.h): written at export, adopted in place at
load, so that a fresh process's first encodes neither build it nor look
their whole-token pieces up in the raw index meanwhile. The ids are the
same with the section and without it; a malformed header is refused; a
damaged table changes ids at worst, never memory safety: no id past the
vocab, no endless probe."""

import os
import platform
import re
import struct

import pytest

import mtok
from harness import assert_same, exported, hide_sections, section, short_parity_strings, shrunk_section

LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")
QWEN3 = ("tokenizers", "qwen3", "tokenizer.json")
HEADER = 16
SLOT = struct.Struct("<QII")  # key, id, length
MASK64 = (1 << 64) - 1


@pytest.fixture(scope="module", params=[LLAMA3, QWEN3], ids=["llama3", "qwen3"])
def files(request):
    return exported(request.param)


def _table(data):
    """(section offset, bits, max_probe, count) of the file's BSHT."""
    entry = section(data, "BSHT")
    bits, max_probe, count, reserved = struct.unpack_from("<IIII", data, entry["offset"])
    assert reserved == 0
    return entry["offset"], bits, max_probe, count


def _slot_of(data, raw: bytes):
    """File offset of the slot holding the token whose bytes are `raw`."""
    at, bits, max_probe, _ = _table(data)
    w, n = int.from_bytes(raw, "little"), len(raw)
    i = (((w ^ (n << 59)) * 0x9E3779B97F4A7C15) & MASK64) >> (64 - bits)
    for _ in range(max_probe + 1):
        off = at + HEADER + i * SLOT.size
        key, _, length = SLOT.unpack_from(data, off)
        if key == w and length == n:
            return off
        i = (i + 1) % (1 << bits)
    raise AssertionError(f"{raw!r} is not in the table")


def test_the_section_holds_the_short_tokens(files):
    data, without_accel = files
    assert section(without_accel, "BSHT") is None
    at, bits, max_probe, count = _table(data)
    assert section(data, "BSHT")["size"] == HEADER + (SLOT.size << bits)
    assert max_probe < 1 << bits and 50_000 < count < 1 << bits
    tok = mtok.Tokenizer.from_bytes(data)
    assert tok.debug_info()["bpe_short_tokens"].startswith(f"{count} tokens of up to 8 bytes")
    # Every slot's length is 0 (empty) to 8, and `count` slots are filled.
    lengths = [SLOT.unpack_from(data, at + HEADER + k * SLOT.size)[2] for k in range(1 << bits)]
    assert max(lengths) <= 8 and sum(1 for n in lengths if n) == count


def test_same_ids_with_the_section_and_without(files):
    data, without_accel = files
    texts = short_parity_strings(2000)
    texts += [" the cat sat on a mat", "naïve café déjà vu", "Привет мир", "东京 大阪 中文", "x" * 9, "ab\ncd"]
    a = mtok.Tokenizer.from_bytes(data).encode_batch(texts, add_special_tokens=False)
    b = mtok.Tokenizer.from_bytes(hide_sections(data, "BSHT")).encode_batch(texts, add_special_tokens=False)
    c = mtok.Tokenizer.from_bytes(without_accel).encode_batch(texts, add_special_tokens=False)
    assert_same("short tokens from the file vs built", texts, b, a)
    assert_same("short tokens from the file vs no acceleration sections", texts, c, a)


def test_the_file_table_is_the_one_used(files):
    # Give " the" the id of " and" in the table: a whole-token piece is
    # then read from the file's slot. (Ids are trusted as the pair ranks
    # are, within the vocab.)
    data, _ = files
    tok = mtok.Tokenizer.from_bytes(data)
    the, = tok.encode(" the", add_special_tokens=False)
    and_, = tok.encode(" and", add_special_tokens=False)
    damaged = bytearray(data)
    struct.pack_into("<I", damaged, _slot_of(data, b" the") + 8, and_)
    assert mtok.Tokenizer.from_bytes(bytes(damaged)).encode("x the", add_special_tokens=False)[-1] == and_
    assert the != and_


def test_an_id_past_the_vocab_is_never_given(files):
    data, _ = files
    tok = mtok.Tokenizer.from_bytes(data)
    want = tok.encode(" the cat", add_special_tokens=False)
    damaged = bytearray(data)
    struct.pack_into("<I", damaged, _slot_of(data, b" the") + 8, 0xFFFFFFF0)
    got = mtok.Tokenizer.from_bytes(bytes(damaged)).encode(" the cat", add_special_tokens=False)
    assert all(i < tok.get_vocab_size() for i in got)
    assert tok.decode(got) == tok.decode(want), "no token found: the piece is merged from its bytes"


def test_a_table_with_no_empty_slot_ends_every_lookup(files):
    # Lengths of 9 match no key and mark no slot empty: only max_probe
    # stops a lookup.
    data, _ = files
    at, bits, _, _ = _table(data)
    damaged = bytearray(data)
    for k in range(1 << bits):
        struct.pack_into("<I", damaged, at + HEADER + k * SLOT.size + 12, 9)
    tok = mtok.Tokenizer.from_bytes(data)
    text = "the cat sat on the mat, and the dog ran"
    got = mtok.Tokenizer.from_bytes(bytes(damaged)).encode(text, add_special_tokens=False)
    assert tok.decode(got) == text


@pytest.mark.parametrize("field, value, message", [
    (0, 3, r"BSHT: a table of 2\^3 slots \(2\^4 to 2\^28\)"),
    (0, 29, r"BSHT: a table of 2\^29 slots"),
    (1, 1 << 30, "BSHT: a probe longer than the table"),
    (3, 1, "BSHT: reserved word is not 0"),
])
def test_a_bad_header_is_a_format_error(files, field, value, message):
    data = bytearray(files[0])
    struct.pack_into("<I", data, section(bytes(data), "BSHT")["offset"] + 4 * field, value)
    with pytest.raises(mtok.FormatError, match=message):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_a_short_section_is_a_format_error(files):
    # The size in its trailer entry shrunk: the table would run short.
    with pytest.raises(mtok.FormatError, match="BSHT: size does not match"):
        mtok.Tokenizer.from_bytes(shrunk_section(files[0], "BSHT", 16))


def test_the_section_needs_the_raw_tables(files):
    with pytest.raises(mtok.FormatError, match="BSPN and BSHT need BRAW and BHSH"):
        mtok.Tokenizer.from_bytes(hide_sections(files[0], "BRAW", "BHSH", "BFLD", "BFLC", "BWHL", "PFLT", "BSPN", "BTAG"))


def _present_share(path, offset, size):
    """The share of the pages of bytes [offset, offset + size) of file `path`
    that this process has mapped (/proc/self/maps, then the present bit of
    each page's /proc/self/pagemap entry)."""
    page = os.sysconf("SC_PAGE_SIZE")
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split()
            if len(fields) > 5 and fields[5] == path:
                start, end = (int(x, 16) for x in fields[0].split("-"))
                base = start - int(fields[2], 16)
                if start <= base + offset and base + offset + size <= end:
                    break
        else:
            raise AssertionError(f"{path} is not mapped")
    first, last = (base + offset) // page, (base + offset + size - 1) // page
    with open("/proc/self/pagemap", "rb") as f:
        f.seek(first * 8)
        entries = f.read((last - first + 1) * 8)
    present = sum(struct.unpack_from("<Q", entries, 8 * k)[0] >> 63 for k in range(last - first + 1))
    return present / (last - first + 1)


def _kernel_maps_ahead():
    """Linux 5.14 and later have MADV_POPULATE_READ; pagemap tells which
    pages are mapped."""
    if platform.system() != "Linux" or not os.path.exists("/proc/self/pagemap"):
        return False
    version = re.match(r"(\d+)\.(\d+)", platform.release())
    return version is not None and (int(version[1]), int(version[2])) >= (5, 14)


@pytest.mark.skipif(not _kernel_maps_ahead(), reason="needs Linux 5.14+ (MADV_POPULATE_READ) and /proc/self/pagemap")
def test_a_file_load_maps_the_section_before_any_encode(files, tmp_path):
    # Looked up at random by first-seen words: its pages are mapped at load,
    # not faulted in one at a time by the first encodes.
    path = str(tmp_path / "tokenizer.mtok")
    with open(path, "wb") as f:
        f.write(files[0])
    tok = mtok.Tokenizer.from_file(path)
    entry = section(files[0], "BSHT")
    assert _present_share(path, entry["offset"], entry["size"]) > 0.9
    del tok
