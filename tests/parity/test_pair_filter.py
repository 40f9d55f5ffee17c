"""The Bloom filter of a byte-level BPE model's merge pairs (section PFLT,
cpp/src/models/bpe/pair_filter.h): first-seen words skip the pair table
(with tiktoken ranks: the token index) for most pairs that do not merge.
The ids must be the same with and without it, also when every bit is set
(every pair "may" merge), and a malformed section is refused."""

import struct

import pytest

import mtok
from harness import assert_same, exported, section, short_parity_strings

LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")
QWEN3 = ("tokenizers", "qwen3", "tokenizer.json")
CL100K = ("tiktoken", "cl100k_base.tiktoken")  # rank merges: pairs whose bytes join into a token


@pytest.fixture(scope="module", params=[LLAMA3, QWEN3, CL100K], ids=["llama3", "qwen3", "cl100k"])
def files(request):
    return exported(request.param)


def test_stored_and_reported(files):
    with_filter, without = files
    entry = section(with_filter, "PFLT")
    assert entry is not None and section(without, "PFLT") is None
    (blocks,) = struct.unpack_from("<I", with_filter, entry["offset"])
    assert entry["size"] == 8 + 64 * blocks
    assert mtok.Tokenizer.from_bytes(with_filter).debug_info()["bpe_pair_filter"] == f"{blocks * 64 >> 10} KB"
    assert mtok.Tokenizer.from_bytes(without).debug_info()["bpe_pair_filter"] == "none"


def test_same_ids_with_and_without_the_filter(files):
    with_filter, without = files
    texts = short_parity_strings(3000)
    assert_same("pair filter vs pair table alone", texts,
                mtok.Tokenizer.from_bytes(without).encode_batch(texts, add_special_tokens=False),
                mtok.Tokenizer.from_bytes(with_filter).encode_batch(texts, add_special_tokens=False))


def test_a_filter_of_ones_changes_nothing(files):
    data = bytearray(files[0])
    entry = section(data, "PFLT")
    data[entry["offset"] + 8:entry["offset"] + entry["size"]] = b"\xff" * (entry["size"] - 8)
    texts = short_parity_strings(1000)
    assert_same("pair filter of ones", texts,
                mtok.Tokenizer.from_bytes(files[0]).encode_batch(texts, add_special_tokens=False),
                mtok.Tokenizer.from_bytes(bytes(data)).encode_batch(texts, add_special_tokens=False))


def test_block_count_must_be_a_power_of_two(files):
    data = bytearray(files[0])
    at = section(data, "PFLT")["offset"]
    (blocks,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, blocks - 1)
    with pytest.raises(mtok.FormatError, match="PFLT: block count .* is not a power of two"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_size_must_match_the_block_count(files):
    data = bytearray(files[0])
    at = section(data, "PFLT")["offset"]
    (blocks,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, blocks // 2)
    with pytest.raises(mtok.FormatError, match="PFLT: size does not match"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_the_filter_is_consulted(files):
    # All zeros: no pair "may" merge, so first-seen words that need merges
    # stay in pieces. Proves the tests above ran with the filter in use.
    data = bytearray(files[0])
    entry = section(data, "PFLT")
    data[entry["offset"] + 8:entry["offset"] + entry["size"]] = bytes(entry["size"] - 8)
    text = "Zwischenablageverwaltungsprogrammierschnittstellen unconventionalities"
    normal = mtok.Tokenizer.from_bytes(files[0]).encode(text, add_special_tokens=False)
    zeros = mtok.Tokenizer.from_bytes(bytes(data)).encode(text, add_special_tokens=False)
    assert len(zeros) > len(normal)
