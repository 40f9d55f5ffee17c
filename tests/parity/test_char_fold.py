"""Byte-level BPE character folds (section BFLD, cpp/src/models/bpe/char_fold.h):
characters whose bytes always merge into one token start a word as that
token. The ids must be the same with and without the section, on real
tokenizers and on small ones where a neighbour can take a byte first; a
corrupt section is refused."""

import struct

import pytest

import mtok
from harness import assert_same, byte_level_bpe, compare_with_hf, exported, section, short_parity_strings

LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")
QWEN3 = ("tokenizers", "qwen3", "tokenizer.json")
O200K = ("tiktoken", "o200k_base.tiktoken")
HEAD = 8 + 1024 * 8  # [u32 count][u32 0][u64 bits[1024]]


def _fold_count(data):
    entry = section(data, "BFLD")
    return None if entry is None else (entry["size"] - HEAD) // 4


@pytest.fixture(scope="module", params=[LLAMA3, QWEN3, O200K], ids=["llama3", "qwen3", "o200k"])
def files(request):
    return exported(request.param)


def test_folds_are_stored_and_reported(files):
    with_fold, without = files
    count = _fold_count(with_fold)
    assert count and count > 100  # hundreds of CJK and Cyrillic characters in each of these
    assert section(without, "BFLD") is None
    assert mtok.Tokenizer.from_bytes(with_fold).debug_info()["bpe_char_fold"] == f"{count} characters"
    assert mtok.Tokenizer.from_bytes(without).debug_info()["bpe_char_fold"] == "none"


def test_same_ids_with_and_without_folds(files):
    with_fold, without = files
    texts = short_parity_strings(4000)
    a = mtok.Tokenizer.from_bytes(with_fold).encode_batch(texts, add_special_tokens=False)
    b = mtok.Tokenizer.from_bytes(without).encode_batch(texts, add_special_tokens=False)
    assert_same("char folds vs bytes", texts, b, a)


def _payload_at(data):
    return section(data, "BFLD")["offset"]


def test_count_mismatch_is_a_format_error(files):
    data = bytearray(files[0])
    at = _payload_at(data)
    (count,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, count + 1)
    with pytest.raises(mtok.FormatError, match="BFLD: size does not match"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_wrong_token_is_a_format_error(files):
    # An id that is not its character's token would change results
    # silently: the load refuses it.
    data = bytearray(files[0])
    at = _payload_at(data) + HEAD
    (first,) = struct.unpack_from("<I", data, at)
    (second,) = struct.unpack_from("<I", data, at + 4)
    struct.pack_into("<I", data, at, second)
    assert second != first
    with pytest.raises(mtok.FormatError, match="BFLD: entry 0 is not the token of its character"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_ascii_bit_is_a_format_error(files):
    # Move the first marked character's bit onto "a" (ASCII never folds):
    # the count still matches, the entry check refuses it.
    data = bytearray(files[0])
    bits = _payload_at(data) + 8
    words = list(struct.unpack_from("<1024Q", data, bits))
    k = next(i for i, w in enumerate(words) if w)
    words[k] &= words[k] - 1
    words[1] |= 1 << (ord("a") - 64)
    struct.pack_into("<1024Q", data, bits, *words)
    with pytest.raises(mtok.FormatError, match="BFLD: entry 0 is not the token of its character"):
        mtok.Tokenizer.from_bytes(bytes(data))


# --- a small byte-level vocabulary where 朝 (E6 9C 9D) assembles as
# (E6, 9C) then (E6 9C, 9D), and a merge across a character edge may come first.

def _merges(thief):
    # The byte-level characters of E6, 9C, 9D and 80.
    e6, x9c, x9d, x80 = "\u00e6", "\u013e", "\u013f", "\u0122"
    merges = []
    if thief == "lead":  # 9D then E6: the end of one 朝 and the start of the next
        merges.append((x9d, e6))
    if thief == "continuation":  # 9D then 80: never at a character edge
        merges.append((x9d, x80))
    return merges + [(e6, x9c), (e6 + x9c, x9d)]


@pytest.mark.parametrize("thief, folds", [(None, 1), ("lead", 0), ("continuation", 1)])
def test_a_character_folds_only_when_no_neighbour_can_take_a_byte(tmp_path, thief, folds):
    pytest.importorskip("tokenizers")
    samples = ["朝", "朝朝", "朝朝朝", "a朝b", "朝\u0080", "日朝", "朝 朝"]
    ours = compare_with_hf(byte_level_bpe(_merges(thief)), samples, tmp_path, f"thief {thief}")
    assert ours.debug_info()["bpe_char_fold"] == ("none" if folds == 0 else f"{folds} characters")
