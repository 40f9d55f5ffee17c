"""The BPE word route (cpp/src/fast_paths/bpe_word_route.*) against HF
tokenizers: SentencePiece-style tokenizer.json files, whose pre-tokens the
route cuts before U+2581 where no merge can cross (models/bpe BpeBoundaries)
and whose words go through the piece cache. Every text is encoded twice (a
miss, then a hit), in a batch on two threads, and with the cache off."""

import json
import random

import pytest

import corpus
import mtok
from harness import assert_same

tokenizers = pytest.importorskip("tokenizers")

ROUTE = "BPE words, split where merges never cross, through a word cache"


def _ids(ref, texts):
    return [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]


def _check(name, ref, ours, texts):
    expected = _ids(ref, texts)
    for attempt in ("miss", "hit"):
        assert_same(f"{name} ({attempt})", texts, expected,
                    [ours.encode(t, add_special_tokens=False) for t in texts])
    assert_same(f"{name} (batch, 2 threads)", texts, expected,
                ours.encode_batch(texts, add_special_tokens=False, num_threads=2))


def _edge_texts(seed=5, n=400):
    """Strings around the cut points: runs of spaces, '>' (Gemma has a token
    '>▁</'), characters that only byte fallback encodes, marks written
    directly, newlines, CJK and accents next to spaces."""
    rng = random.Random(seed)
    alphabet = [" ", " ", "  ", "a", "b", "the", ">", "</", "<", "\u2581", "\n", "é", "中文", "🦜",
                "\U0001D11E", "\u0d9a", "-", "x>", "ab c", "\t"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) for _ in range(n)]


@pytest.fixture(scope="module", params=["gemma3", "mistral-7b-v0.1"])
def pair(request):
    ref, ours = corpus.hf_pair(request.param)
    return request.param, ref, ours


def test_takes_the_route(pair):
    name, _, ours = pair
    assert ours.debug_info()["ids_route"] == ROUTE, name


def test_corpus_text(pair):
    name, ref, ours = pair
    texts = []
    for _, text in corpus.text_files():
        texts += [p for p in text.split("\n\n") if p.strip()][:40]
        texts.append(text[:4096])
    _check(name, ref, ours, texts)


def test_edges(pair):
    name, ref, ours = pair
    _check(name, ref, ours, _edge_texts())


def test_cache_off(pair):
    name, ref, ours = pair
    before = mtok.piece_cache_mb()
    mtok.set_piece_cache_mb(0)
    try:
        texts = _edge_texts(seed=9, n=100)
        assert_same(f"{name} (no cache)", texts, _ids(ref, texts),
                    [ours.encode(t, add_special_tokens=False) for t in texts])
    finally:
        mtok.set_piece_cache_mb(before)


def _synthetic(fuse_unk, byte_fallback):
    """A small SentencePiece-style BPE whose vocab glues 'q', 'ж' and '𝄞' to
    the mark ('q▁z' is a token) and has no token for 'k': the route must not
    cut after those, nor after an unknown or byte-fallback character. '中'
    and '😀' are tokens no token glues (the two-, three- and four-byte
    characters of the route's per-character table and of its astral probe)."""
    letters = "abcqzж𝄞中😀"
    vocab = {"<unk>": 0, "\u2581": 1}
    for c in letters:
        vocab[c] = len(vocab)
    merges = []

    def add(a, b):
        merges.append([a, b])
        vocab.setdefault(a + b, len(vocab))

    add("\u2581", "a")
    add("\u2581a", "b")
    add("q", "\u2581")
    add("q\u2581", "z")
    add("ж", "\u2581")
    add("\U0001D11E", "\u2581")
    add("a", "b")
    add("\u2581", "\u2581")
    if byte_fallback:
        for b in range(256):
            vocab.setdefault(f"<0x{b:02X}>", len(vocab))
    spec = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
        "pre_tokenizer": None, "post_processor": None, "decoder": None,
        "model": {"type": "BPE", "dropout": None, "unk_token": "<unk>", "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": fuse_unk, "byte_fallback": byte_fallback,
                  "ignore_merges": False, "vocab": vocab, "merges": merges},
    }
    text = json.dumps(spec)
    return tokenizers.Tokenizer.from_str(text), mtok.Tokenizer.from_str(text)


@pytest.mark.parametrize("fuse_unk,byte_fallback", [(False, False), (True, False), (True, True)])
def test_synthetic_glue_and_unknowns(fuse_unk, byte_fallback):
    ref, ours = _synthetic(fuse_unk, byte_fallback)
    rng = random.Random(11)
    texts = ["".join(rng.choice(["a", "b", "q", "z", "k", "é", " ", "  ", "ab", "q z", "ж", "\U0001D11E",
                                         "中", "\U0001F600", "ж z", "中 a"])
                     for _ in range(rng.randint(1, 30))) for _ in range(600)]
    if fuse_unk and not byte_fallback:  # unknowns fuse across words: the route stays off
        assert ours.debug_info()["ids_route"] == "general pipeline"
    else:
        assert ours.debug_info()["ids_route"] == ROUTE
    _check(f"synthetic fuse_unk={fuse_unk} byte_fallback={byte_fallback}", ref, ours, texts)


def _exported(name):
    from harness import exported

    return exported(("tokenizers", name, "tokenizer.json"))


def test_boundaries_from_the_file_or_scanned_agree(pair):
    # The export writes the scan's tables (BBND); a file without them is
    # scanned at the first word. Both must cut where HF's ids allow.
    from harness import section

    name, ref, _ = pair
    with_cuts, without = _exported(name)
    assert section(with_cuts, "BBND") is not None and section(without, "BBND") is None
    texts = _edge_texts(seed=11, n=300)
    for data, source in ((with_cuts, "mapped from the file (BBND)"), (without, "scanned at the first word")):
        tok = mtok.Tokenizer.from_bytes(data)
        assert tok.debug_info()["bpe_word_boundaries"] == source
        assert_same(f"{name} ({source})", texts, _ids(ref, texts),
                    [tok.encode(t, add_special_tokens=False) for t in texts])


def _damaged_boundaries(change):
    import struct

    from harness import section

    data = bytearray(_exported("mistral-7b-v0.1")[0])
    at = section(data, "BBND")["offset"]
    change(data, at, struct)
    return bytes(data)


def test_boundaries_of_another_size_are_refused():
    data = _damaged_boundaries(lambda d, at, struct: struct.pack_into("<I", d, at, 512))
    with pytest.raises(mtok.FormatError, match="BBND: holds 512 words per table, not 1024"):
        mtok.Tokenizer.from_bytes(data)


def test_boundaries_with_a_count_past_the_section_are_refused():
    data = _damaged_boundaries(lambda d, at, struct: struct.pack_into("<I", d, at + 4, 1 << 20))
    with pytest.raises(mtok.FormatError, match="BBND: size does not match its counts"):
        mtok.Tokenizer.from_bytes(data)
