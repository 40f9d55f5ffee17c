"""The WordPiece vocab trie: written by the export (WTRI, with the vocab's
VOFF and VHSH), used in place at load, the same ids as a trie built at the
first word, and a damaged section refused when the file loads."""

import struct

import pytest

import mtok
from harness import assert_same, exported, section, short_parity_strings

BERT = ("tokenizers", "bert-base-uncased", "tokenizer.json")


@pytest.fixture(scope="module")
def files():
    return exported(BERT)


def _untruncated(data):
    tok = mtok.Tokenizer.from_bytes(data)
    tok.no_truncation()
    return tok


def test_trie_is_mapped_from_the_file(files):
    with_trie, without = files
    for name in ("WTRI", "VOFF", "VHSH"):
        assert section(with_trie, name) is not None, name
        assert section(without, name) is None, name
    assert mtok.Tokenizer.from_bytes(with_trie).debug_info()["wordpiece_trie"] == "mapped from the file (WTRI)"
    assert mtok.Tokenizer.from_bytes(without).debug_info()["wordpiece_trie"] == "built at the first word"


def test_mapped_and_built_tries_agree(files):
    with_trie, without = files
    texts = short_parity_strings(4000)
    mapped, built = _untruncated(with_trie), _untruncated(without)
    assert_same("mapped vs built WordPiece trie", texts, built.encode_batch(texts), mapped.encode_batch(texts))
    # Tokens and offsets come from the same walk.
    for t in texts[:200]:
        a, b = mapped.encode(t, return_encoding=True), built.encode(t, return_encoding=True)
        assert (a.tokens, a.offsets) == (b.tokens, b.offsets)


def test_matches_hf_from_a_cached_load(tmp_path, monkeypatch):
    tokenizers = pytest.importorskip("tokenizers")
    import corpus

    path = str(corpus.file_path(*BERT))
    monkeypatch.setenv("MTOK_CACHE_DIR", str(tmp_path))
    mtok.Tokenizer.from_file(path)  # converts and stores
    tok = mtok.Tokenizer.from_file(path)  # maps the stored entry
    assert tok.debug_info()["wordpiece_trie"] == "mapped from the file (WTRI)"
    tok.no_truncation()
    ref = tokenizers.Tokenizer.from_file(path)
    ref.no_truncation()
    texts = short_parity_strings(2000)
    assert_same("bert from the cache", texts, [e.ids for e in ref.encode_batch(texts)], tok.encode_batch(texts))


def _header(data):
    at = section(data, "WTRI")["offset"]
    return at, struct.unpack_from("<4I", data, at)


def _damaged(files, change):
    data = bytearray(files[0])
    at, (nodes, dense, labels, _) = _header(data)
    change(data, at, nodes, dense, labels)
    return bytes(data)


def test_counts_that_do_not_match_the_size_are_refused(files):
    data = _damaged(files, lambda d, at, nodes, dense, labels: struct.pack_into("<I", d, at + 4, dense + 256))
    with pytest.raises(mtok.FormatError, match="WTRI: size does not match"):
        mtok.Tokenizer.from_bytes(data)


def test_children_out_of_range_are_refused(files):
    def change(d, at, nodes, *_):
        struct.pack_into("<II", d, at + 16 + 16 * 1, nodes - 2, 5)  # node 1: 5 children from the last but one
        struct.pack_into("<I", d, at + 16 + 16 * 1 + 12, 0xFFFFFFFF)  # and scanned, not in a table

    with pytest.raises(mtok.FormatError, match="WTRI: node 1 has children out of range"):
        mtok.Tokenizer.from_bytes(_damaged(files, change))


def test_too_many_children_without_a_table_are_refused(files):
    def change(d, at, *_):
        struct.pack_into("<II", d, at + 16 + 16 * 1, 1, 17)  # node 1: 17 scanned labels (at most 16)
        struct.pack_into("<I", d, at + 16 + 16 * 1 + 12, 0xFFFFFFFF)

    with pytest.raises(mtok.FormatError, match="WTRI: node 1 has children out of range"):
        mtok.Tokenizer.from_bytes(_damaged(files, change))


def test_a_dense_table_past_the_end_is_refused(files):
    def change(d, at, nodes, dense, labels):
        struct.pack_into("<I", d, at + 16 + 12, dense)  # the root's table starts where the tables end

    with pytest.raises(mtok.FormatError, match="WTRI: node 0 has children out of range"):
        mtok.Tokenizer.from_bytes(_damaged(files, change))


def test_a_dense_entry_out_of_range_is_refused(files):
    def change(d, at, nodes, dense, labels):
        struct.pack_into("<I", d, at + 16 + 16 * nodes + 4 * 7, nodes)  # one past the last node

    with pytest.raises(mtok.FormatError, match="WTRI: a dense table names a node out of range"):
        mtok.Tokenizer.from_bytes(_damaged(files, change))


def test_a_token_past_the_vocab_is_refused(files):
    def change(d, at, nodes, *_):
        struct.pack_into("<I", d, at + 16 + 16 * 1 + 8, 1 << 24)  # node 1's token

    with pytest.raises(mtok.FormatError, match="WTRI: node 1 holds token id 16777216"):
        mtok.Tokenizer.from_bytes(_damaged(files, change))


def test_labels_that_do_not_cover_the_nodes_are_refused(files):
    def change(d, at, nodes, dense, labels):
        struct.pack_into("<I", d, at + 8, nodes)  # no padding after the last label

    with pytest.raises(mtok.FormatError, match="WTRI: labels do not cover every node"):
        mtok.Tokenizer.from_bytes(_damaged(files, change))
