"""The Unigram lattice's bitmap trie: stored in the file (UTRI) and used in
place, the same ids when built at load instead, moved to huge pages after
enough input, and a corrupt section refused or walked safely."""

import struct

import pytest

import mtok
from corpus import settled_debug_info
from harness import assert_same, exported, section, short_parity_strings

XLMR = ("tokenizers", "xlm-roberta", "tokenizer.json")
T5_SPM = ("tokenizers", "t5-small", "spiece.model")


@pytest.fixture(scope="module", params=[XLMR, T5_SPM], ids=["xlm-roberta", "t5-spiece"])
def files(request):
    return exported(request.param)



def test_trie_is_mapped_from_the_file(files):
    with_trie, without = files
    assert section(with_trie, "UTRI") is not None
    assert section(without, "UTRI") is None
    info = mtok.Tokenizer.from_bytes(with_trie).debug_info()
    assert info["unigram_trie_source"].startswith("mapped")
    assert mtok.Tokenizer.from_bytes(without).debug_info()["unigram_trie_source"] == "built at load"


def test_built_and_mapped_tries_agree(files):
    with_trie, without = files
    texts = short_parity_strings(4000)
    a = mtok.Tokenizer.from_bytes(with_trie).encode_batch(texts)
    b = mtok.Tokenizer.from_bytes(without).encode_batch(texts)
    assert_same("mapped vs built trie", texts, b, a)


def test_moves_to_huge_pages_without_changing_ids(files):
    # The move starts once a thread has encoded 64 KB (in this process,
    # maybe already) and runs on a thread of its own: ids before, during
    # and after must agree either way.
    tok = mtok.Tokenizer.from_bytes(files[0])
    text = " ".join(short_parity_strings(4000)[:200])
    before = tok.encode(text)
    for _ in range(3):
        tok.encode(text * 4)  # well past the 64 KB after which the trie moves
        assert tok.encode(text) == before  # the copy may still be running
    pages = settled_debug_info(tok)["unigram_trie_pages"]
    assert pages in {"2 MB pages (MAP_HUGETLB)", "2 MB transparent huge pages (madvise)", "4 KB pages"}
    assert tok.encode(text) == before


def _utri_payload_offset(data):
    entry = section(data, "UTRI")
    return entry["offset"]


def test_node_count_mismatch_is_a_format_error(files):
    data = bytearray(files[0])
    at = _utri_payload_offset(data)
    (count,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, count + 1)
    with pytest.raises(mtok.FormatError, match="UTRI: size does not match"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_child_index_out_of_range_is_walked_safely(files):
    data = bytearray(files[0])
    root = _utri_payload_offset(data) + 64  # node 0
    struct.pack_into("<I", data, root + 32, 0xFFFFFF00)  # first_child far beyond the array
    tok = mtok.Tokenizer.from_bytes(bytes(data))
    ids = tok.encode("hello world", add_special_tokens=False)
    # Every match from the root is gone: only unknown pieces remain.
    assert set(ids) <= {tok.token_to_id("<unk>")}
