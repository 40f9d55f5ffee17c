"""The cut table of byte-level BPE as a file section (BSPN,
cpp/src/models/bpe/token_spans.h): written at export, adopted in place at
load, so that a fresh process's first long piece does not build it (4.4 M
instructions for Llama 3). The ids are the same with the section and
without it (then built at the first cut); a malformed section is refused, and the file's table is the one used."""

import struct

import pytest

import mtok
from harness import assert_same, exported, hide_sections, section, short_parity_strings, shrunk_section

LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")
QWEN3 = ("tokenizers", "qwen3", "tokenizer.json")
BITS = 20  # TokenSpans::kBits
SIZE = 8 + (1 << BITS) // 8


@pytest.fixture(scope="module", params=[LLAMA3, QWEN3], ids=["llama3", "qwen3"])
def files(request):
    return exported(request.param)


def _payload(data):
    entry = section(data, "BSPN")
    return data[entry["offset"]:entry["offset"] + entry["size"]]


def test_the_section_is_the_table_a_load_from_source_builds(files):
    data, without_accel = files
    assert section(without_accel, "BSPN") is None
    payload = _payload(data)
    assert len(payload) == SIZE and struct.unpack_from("<II", payload) == (BITS, 0)
    assert any(payload[8:]), "the tokenizers' CJK tokens set bits"



def test_the_file_table_is_the_one_used(files):
    # A table of zeros says no token lies across any point, so long CJK
    # pieces are cut everywhere a tracked point is: some of their ids change.
    # (The bits are trusted as the pair ranks are.)
    data = bytearray(files[0])
    entry = section(bytes(data), "BSPN")
    data[entry["offset"] + 8:entry["offset"] + entry["size"]] = bytes(entry["size"] - 8)
    text = "这是一个很长的中文句子没有空格也没有标点符号它会被切成几个部分来编码" * 4
    good = mtok.Tokenizer.from_bytes(files[0]).encode(text, add_special_tokens=False)
    assert mtok.Tokenizer.from_bytes(bytes(data)).encode(text, add_special_tokens=False) != good


def test_same_ids_with_the_section_and_without(files):
    data, _ = files
    texts = short_parity_strings(2000)
    # Long CJK and mixed pieces: cut where the table says no token lies across.
    texts += ["这是一个很长的中文句子，没有空格也没有标点符号它会被切成几个部分来编码" * 3,
              "日本語のテキストは単語の間にスペースがありませんのでとても長い一つの塊になります",
              "한국어문장은띄어쓰기가없으면아주긴조각이됩니다그리고그조각은잘립니다"]
    a = mtok.Tokenizer.from_bytes(data).encode_batch(texts, add_special_tokens=False)
    b = mtok.Tokenizer.from_bytes(hide_sections(data, "BSPN")).encode_batch(texts, add_special_tokens=False)
    assert_same("cut table from the file vs built", texts, b, a)


def test_a_wrong_bit_count_is_a_format_error(files):
    data = bytearray(files[0])
    at = section(bytes(data), "BSPN")["offset"]
    struct.pack_into("<I", data, at, BITS + 1)
    with pytest.raises(mtok.FormatError, match=r"BSPN: a table of 2\^21 bits, this reader's has 2\^20"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_a_short_section_is_a_format_error(files):
    # The size in its trailer entry shrunk: the table would run short.
    with pytest.raises(mtok.FormatError, match="BSPN: size does not match"):
        mtok.Tokenizer.from_bytes(shrunk_section(files[0], "BSPN", 8))
