"""Tags of the raw-bytes index of byte-level BPE (section BTAG,
cpp/src/common/hash_index.h): a byte per BHSH slot, so that looking up a
pre-token that is no token (most whole pre-tokens of first-seen text)
reads the tags alone. The ids must be the same with the section, without
it, and with tags built at load; a corrupt section is refused."""

import struct

import pytest

import mtok
from harness import assert_same, exported, hide_sections, section, short_parity_strings

LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")
O200K = ("tiktoken", "o200k_base.tiktoken")


@pytest.fixture(scope="module", params=[LLAMA3, O200K], ids=["llama3", "o200k"])
def files(request):
    return exported(request.param)


def test_tags_cover_the_index_and_hold_free_slots(files):
    data, without_accel = files
    tags, index = section(data, "BTAG"), section(data, "BHSH")
    assert tags is not None and section(without_accel, "BTAG") is None
    capacity = (index["size"] - 8) // 4
    assert tags["size"] == 8 + capacity
    head = struct.unpack_from("<II", data, tags["offset"])
    assert head == (capacity, 0)
    body = data[tags["offset"] + 8:tags["offset"] + 8 + capacity]
    slots = struct.unpack_from(f"<{capacity}I", data, index["offset"] + 8)
    # A tag is 0 exactly where the slot is empty.
    assert all((t == 0) == (s == 0xFFFFFFFF) for t, s in zip(body, slots))


def test_same_ids_with_tags_without_them_and_with_tags_built_at_load(files):
    data, without_accel = files
    texts = short_parity_strings(3000)
    # Whole words that are tokens, and near misses that are not.
    texts += [" the", " thé", "ização", " понимание", "日本語", "日本語x", "👍🏽", "\u00a0\u00a0"]
    runs = [mtok.Tokenizer.from_bytes(d).encode_batch(texts, add_special_tokens=False)
            for d in (data, hide_sections(data, "BTAG"), without_accel)]
    assert_same("tags vs no tags", texts, runs[1], runs[0])
    assert_same("tags vs tags built at load", texts, runs[2], runs[0])


def test_a_wrong_size_is_a_format_error(files):
    data = bytearray(files[0])
    at = section(bytes(data), "BTAG")["offset"]
    (capacity,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, capacity // 2)
    with pytest.raises(mtok.FormatError, match="BTAG: size does not match"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_tags_without_a_free_slot_are_a_format_error(files):
    # Probes stop at a 0 tag: a table without one would never end a miss.
    data = bytearray(files[0])
    entry = section(bytes(data), "BTAG")
    start, end = entry["offset"] + 8, entry["offset"] + entry["size"]
    data[start:end] = b"\x01" * (end - start)
    with pytest.raises(mtok.FormatError, match="BTAG: no free slot"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_tags_need_the_index(files):
    with pytest.raises(mtok.FormatError, match="BTAG, BSPN and BSHT need BRAW and BHSH"):
        mtok.Tokenizer.from_bytes(hide_sections(files[0], "BRAW", "BHSH", "BFLD", "BFLC", "BWHL", "PFLT", "BSPN", "BSHT"))
