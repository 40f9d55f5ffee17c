"""ByteBpe's byte-pair table (cpp/src/models/bpe/byte_bpe.h, BytePair): the
first merges of a word between two raw bytes are answered from a table
shared by every thread, filled on a thread of its own after load and, by
an encode that meets a pair first, on first sight. The ids must be HF's
for every pair of bytes a word can start with, the first time a pair is
seen and once the table holds it, when threads fill it at once, in short
words and in pieces long enough for the linear-time merger, and when a
file's rank does not fit an entry."""

import json
import os
import signal
import struct
import time

import pytest

import mtok
from harness import assert_same, byte_level_bpe, exported, section

tokenizers = pytest.importorskip("tokenizers")
import corpus  # noqa: E402

LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")
GPT2 = ("tokenizers", "gpt2", "tokenizer.json")
QWEN3 = ("tokenizers", "qwen3", "tokenizer.json")
O200K_HF = ("tokenizers", "gpt-4o-o200k-hf", "tokenizer.json")

PRINTABLE = [chr(c) for c in range(0x21, 0x7F)]
# Characters outside ASCII whose bytes stay raw in the merge loop (no
# character fold covers them in these vocabularies) or fold: both kinds
# of neighbours.
OTHER = list("éßøçñ") + list("жщЯ") + list("中文字語ー") + list("한국") + list("अआ") + ["😀", "🦀", "\u0301", "\u200d"]


def _inputs():
    pairs = [a + b for a in PRINTABLE for b in PRINTABLE]
    words = [p * 3 for p in pairs[::7]]  # the pair again after merges
    mixed = [a + b + c for a in OTHER for b in OTHER for c in "a "]
    long_runs = [(a + b) * 80 for a in "ab7é中😀" for b in "xy中😀"]  # > 128 bytes: the linear-time merger
    return pairs + words + mixed + long_runs


@pytest.fixture(scope="module", params=[LLAMA3, GPT2, QWEN3, O200K_HF], ids=["llama3", "gpt2", "qwen3", "o200k"])
def case(request):
    path = corpus.file_path(*request.param)
    ref = tokenizers.Tokenizer.from_file(str(path))
    ref.no_truncation()
    ref.no_padding()
    return exported(request.param)[0], ref


def _fresh(data):
    tok = mtok.Tokenizer.from_bytes(data)
    tok.no_truncation()
    tok.no_padding()
    assert tok.debug_info()["ids_route"].startswith("byte-level BPE")
    return tok


def test_pairs_cold_and_warm(case):
    data, ref = case
    inputs = _inputs()
    expected = [e.ids for e in ref.encode_batch(inputs, add_special_tokens=False)]
    tok = _fresh(data)  # each pair filled at its first word or by the load's thread, whichever comes first
    before = mtok.piece_cache_mb()
    mtok.set_piece_cache_mb(0)  # every word merges, the second pass too
    try:
        cold = [tok.encode(t, add_special_tokens=False) for t in inputs]
        warm = [tok.encode(t, add_special_tokens=False) for t in inputs]
    finally:
        mtok.set_piece_cache_mb(before)
    assert_same("byte pairs, first sight", inputs, expected, cold)
    assert_same("byte pairs, from the table", inputs, expected, warm)


def test_pairs_filled_by_two_threads(case):
    data, ref = case
    inputs = _inputs() * 2
    expected = [e.ids for e in ref.encode_batch(inputs, add_special_tokens=False)]
    tok = _fresh(data)
    assert_same("byte pairs, two threads filling", inputs, expected,
                tok.encode_batch(inputs, add_special_tokens=False, num_threads=2))


def test_the_table_fills_after_load_without_an_encode(case):
    # Filled ahead, so that a fresh process's first words find their pairs
    # known; then every pair answers as HF's merges do.
    data, ref = case
    tok = _fresh(data)
    info = corpus.settled_debug_info(tok)
    assert info["bpe_byte_pairs"] == "65536 of 65536 byte pairs known"
    inputs = _inputs()
    expected = [e.ids for e in ref.encode_batch(inputs, add_special_tokens=False)]
    assert_same("byte pairs, filled ahead", inputs, expected,
                [tok.encode(t, add_special_tokens=False) for t in inputs])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_forked_while_the_table_fills(case):
    # The fill's thread does not come with a fork: the child fills what
    # its words meet, must not hang, and gives HF's ids; so does the parent.
    data, ref = case
    inputs = _inputs()
    expected = [e.ids for e in ref.encode_batch(inputs, add_special_tokens=False)]
    tok = _fresh(data)
    pid = os.fork()  # at once: the table is still filling
    if pid == 0:
        code = 1
        try:
            got = [tok.encode(t, add_special_tokens=False, num_threads=1) for t in inputs]  # no pool in a child
            code = 0 if got == expected else 2
        finally:
            os._exit(code)
    deadline = time.monotonic() + 120
    while not (done := os.waitpid(pid, os.WNOHANG))[0]:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("the child forked while the byte-pair table filled hung")
        time.sleep(0.05)
    assert os.waitstatus_to_exitcode(done[1]) == 0, "the forked child's ids differ from HF's"
    assert_same("byte pairs, the parent after a fork", inputs, expected,
                [tok.encode(t, add_special_tokens=False) for t in inputs])


@pytest.mark.parametrize("rank", [1 << 22, (1 << 23) + 7, 0xFFFFFFFE],
                         ids=["first-past-merge-keys", "past-merge-keys", "past-table-entries"])
def test_rank_too_large_for_an_entry(tmp_path, rank):
    # A file's pair table may hold any rank: one past what an entry holds
    # (rank + 1 in 32 bits) is asked of the pair table each time, one past
    # the short-word merge keys (rank << 8 | position, ranks below 2^22, merge_key.h)
    # goes to the linear-time merger; both give
    # the ids of a table where that merge comes last.
    from mtok.convert import load_spec
    from mtok.convert.export import export_mtok

    merges = [("a", "b"), ("b", "c"), ("ab", "c"), ("c", "a")]
    original = byte_level_bpe(merges)
    path = tmp_path / "tokenizer.json"
    path.write_text(original.to_str())
    data = bytearray(export_mtok(load_spec(str(path))))
    vocab = original.get_vocab()
    entry = section(data, "PHSH")  # [u32 capacity][u32 0], then 16-byte slots
    patched = 0
    for at in range(entry["offset"] + 8, entry["offset"] + entry["size"], 16):
        left, right, _, _ = struct.unpack_from("<4I", data, at)
        if (left, right) == (vocab["a"], vocab["b"]):
            struct.pack_into("<I", data, at + 8, rank)
            patched += 1
    assert patched == 1
    whole = section(data, "BWHL")  # found with the original ranks
    data[whole["offset"] + 8:whole["offset"] + whole["size"]] = bytes(whole["size"] - 8)
    last = json.loads(original.to_str())
    last["model"]["merges"] = last["model"]["merges"][1:] + last["model"]["merges"][:1]
    ref = tokenizers.Tokenizer.from_str(json.dumps(last))
    inputs = ["ab", "abc", "cab", "abcab", "ababab", "cabcabca", "abc" * 40, "ab" * 70, "ab" * 140]
    expected = [ref.encode(t, add_special_tokens=False).ids for t in inputs]
    assert expected[1] == [vocab["a"], vocab["bc"]]  # the moved merge changes results
    ours = mtok.Tokenizer.from_bytes(bytes(data))
    for rnd in ("first sight", "from the table"):
        assert_same(f"rank {rank:#x}, {rnd}", inputs, expected,
                    [ours.encode(t, add_special_tokens=False) for t in inputs])
