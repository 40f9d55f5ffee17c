"""Tokens that merge into themselves (section BWHL, cpp/src/models/bpe/whole_tokens.h):
without ignore_merges, a pre-token equal to one of them is emitted without
running the merges. The ids must be the same with and without the section,
a token whose bytes merge into something else must still be merged, and a
corrupt section is refused."""

import struct

import pytest

import corpus
import mtok
from harness import assert_same, byte_level_bpe, compare_with_hf, exported, section, short_parity_strings
from mtok.convert import load_spec
from mtok.convert.export import export_mtok

QWEN3 = ("tokenizers", "qwen3", "tokenizer.json")
GPT2 = ("tokenizers", "gpt2", "tokenizer.json")
LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")


@pytest.fixture(scope="module", params=[QWEN3, GPT2], ids=["qwen3", "gpt2"])
def files(request):
    return exported(request.param)


def test_stored_and_reported(files):
    with_table, without = files
    assert section(with_table, "BWHL") is not None and section(without, "BWHL") is None
    info = mtok.Tokenizer.from_bytes(with_table).debug_info()["bpe_whole_tokens"]
    assert info.endswith(" tokens") and int(info.split()[0]) > 40_000
    assert mtok.Tokenizer.from_bytes(without).debug_info()["bpe_whole_tokens"] == "none"


def test_not_stored_with_ignore_merges():
    data = export_mtok(load_spec(str(corpus.file_path(*LLAMA3))))
    assert section(data, "BWHL") is None
    assert mtok.Tokenizer.from_bytes(data).debug_info()["bpe_whole_tokens"] == "all (ignore_merges)"


def test_same_ids_with_and_without_the_table(files):
    with_table, without = files
    texts = short_parity_strings(4000)
    a = mtok.Tokenizer.from_bytes(with_table).encode_batch(texts, add_special_tokens=False)
    b = mtok.Tokenizer.from_bytes(without).encode_batch(texts, add_special_tokens=False)
    assert_same("whole tokens vs merges", texts, b, a)


def test_count_mismatch_is_a_format_error(files):
    data = bytearray(files[0])
    at = section(data, "BWHL")["offset"]
    (count,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, count - 1)
    with pytest.raises(mtok.FormatError, match="BWHL: covers"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_bits_past_the_last_id_are_a_format_error(files):
    data = bytearray(files[0])
    entry = section(data, "BWHL")
    (count,) = struct.unpack_from("<I", data, entry["offset"])
    if count % 64 == 0:
        pytest.skip("no spare bits in the last word")
    last = entry["offset"] + entry["size"] - 8
    (word,) = struct.unpack_from("<Q", data, last)
    struct.pack_into("<Q", data, last, word | (1 << 63))
    with pytest.raises(mtok.FormatError, match="BWHL: bits set past the last id"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_a_token_that_merges_into_something_else_is_merged(tmp_path):
    # "abc" is a token, but (b, c) outranks (a, b): its own bytes merge to
    # [a, bc], which is what HF gives without ignore_merges.
    pytest.importorskip("tokenizers")
    ref = byte_level_bpe([("b", "c"), ("a", "b"), ("ab", "c")])
    vocab = ref.get_vocab()
    assert ref.encode("abc", add_special_tokens=False).ids == [vocab["a"], vocab["bc"]]
    ours = compare_with_hf(ref, ["abc", "ab", "bc", "abcabc", "a", "cab"], tmp_path, "abc")
    # 256 bytes + "bc" + "ab" merge into themselves; "abc" does not.
    assert ours.debug_info()["bpe_whole_tokens"] == "258 tokens"
