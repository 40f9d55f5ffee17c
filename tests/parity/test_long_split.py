"""One long encode cut where the pre-tokenizer always splits, the parts on
the thread pool (cpp/src/fast_paths/split_encode.h): the same ids as on one
thread and as the reference, whatever characters surround each candidate
cut; num_threads=1 and MTOK_NUM_THREADS=1 keep the work on the calling
thread."""

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

import corpus
import mtok
from mtok import _native
from harness import assert_same

REPO = Path(__file__).resolve().parents[2]
# The pre-token scanners with line-break cuts: GPT-2, Llama-3, o200k and
# Qwen from tokenizer.json; tiktoken's r50k and cl100k (which end a white
# space run with \s++$ and \s*[\r\n]) below. XLM-R and T5: Metaspace
# routes that normalize line breaks to spaces and cut before them (XLM-R
# collapsing spaces, T5 splitting on white space first).
NAMES = ("gpt2", "llama3", "gpt-4o-o200k-hf", "qwen3", "xlm-roberta", "t5-small")
TIKTOKEN_NAMES = ("r50k_base", "cl100k_base", "o200k_base")
SPLIT_MIN = _native.SPLIT_MIN_BYTES  # EncodeOptions::kSplitMinBytes
PARTS = 8  # segments of a text, each ending in a context: a cut target falls in each
# Characters on either side of a line break: letters of several scripts,
# digits, o200k's '/', punctuation, apostrophes (contractions), ASCII and
# Unicode white space, line breaks, an emoji, and a control character
# that Python's isspace() takes for white space and the patterns' \s do not.
AROUND = ["a", "Z", "7", "/", ".", "'", "-", "(", " ", "\t", "\r", "\n", "中", "é", "\u3000", "\u00a0", "😀",
          "\x1c"]
FILLER = "lorem ipsum, dolor 1234 sit/amet; ÉTÉ café 東京 ok?? (x) "  # no line break


def contexts():
    """Every (before, after) pair around a line break, with double breaks."""
    pairs = [a + "\n" + b for a, b in itertools.product(AROUND, repeat=2)]
    # (U+0600 starts a grapheme cluster with the character after it.)
    return pairs + ["x\n\ny", "x\r\ny", "x \ny", "x\n y", "x.\n/y", "x\n's", "\n\nx", "\u0600a\nb", "\u0600.\nb"]


def texts_with_cuts():
    """Texts of PARTS equal segments, each filler ending in one context:
    the cut searched from each target (a segment's start) lands on that
    segment's context when the context allows one, so every context is a
    candidate cut in some text."""
    seg = SPLIT_MIN // PARTS + 1024
    body = (FILLER * (seg // len(FILLER.encode()) + 1))
    ctx = contexts()
    out = []
    for k in range(0, len(ctx), PARTS):
        group = (ctx[k:k + PARTS] + ctx)[:PARTS]  # the last group filled up from the first
        parts = []
        for c in group:
            room = seg - len(c.encode())
            filler = body.encode()[:room].decode("utf-8", "ignore")
            parts.append(filler + c)
        out.append("".join(parts))
    return out


@pytest.fixture(scope="module", params=NAMES)
def pair(request):
    return corpus.hf_pair(request.param)


def assert_reference_ids_on_1_to_3_threads(ref, tok, texts):
    expected = [ref.encode(t, add_special_tokens=False).ids for t in texts]
    for threads in (1, 2, 3):
        got = [tok.encode(t, add_special_tokens=False, num_threads=threads) for t in texts]
        assert_same(f"{threads} threads", texts, expected, got, limit=2)


def test_every_cut_context_gives_the_one_thread_and_reference_ids(pair):
    ref, tok = pair
    texts = texts_with_cuts()
    assert all(len(t.encode()) >= SPLIT_MIN for t in texts)
    splits = _split_info(tok)[0]
    assert_reference_ids_on_1_to_3_threads(ref, tok, texts)
    # Cut on 2 and on 3 threads: a third of the texts or more have a context
    # that allows a cut (the Metaspace routes cut only after printable ASCII).
    assert _split_info(tok)[0] - splits >= 2 * (len(texts) // 3)


@pytest.mark.parametrize("name", TIKTOKEN_NAMES)
def test_every_cut_context_gives_tiktoken_ids(name):
    """The same cut contexts through tiktoken's patterns, against tiktoken."""
    from test_tiktoken import reference

    ref, tok = reference(name), mtok.get_encoding(name)._tokenizer
    texts = texts_with_cuts()
    expected = ref.encode_ordinary_batch(texts)
    splits = _split_info(tok)[0]
    for threads in (1, 2):
        got = [tok.encode(t, add_special_tokens=False, num_threads=threads) for t in texts]
        assert_same(f"tiktoken {name}, {threads} threads", texts, expected, got, limit=2)
    assert _split_info(tok)[0] - splits >= len(texts) // 3  # cut on 2 threads


def test_corpus_text_on_two_threads(pair):
    ref, tok = pair
    if not corpus.available():
        pytest.skip(f"corpus not found at {corpus.CORPUS}")
    whole = "".join(text for _, text in corpus.text_files())
    texts = [whole[i:i + (300 << 10)] for i in range(0, len(whole), len(whole) // 3)][:3]
    expected = [ref.encode(t, add_special_tokens=False).ids for t in texts]
    for rnd in ("cold", "warm"):
        got = [tok.encode(t, add_special_tokens=False, num_threads=2) for t in texts]
        assert_same(f"two threads, {rnd}", texts, expected, got, limit=1)


def test_parts_kept_between_calls_never_leak_into_the_next(pair):
    """The calling thread keeps its parts' vectors between split encodes
    (split_encode.cc): an encode after one with more parts, or after one so
    long that the vectors were given back, has the ids of one thread."""
    _, tok = pair
    texts = texts_with_cuts()
    huge = texts[0] * 24  # over 4 MB of ids in the parts: given back after
    order = [(texts[1], 3), (texts[2], 2), (huge, 2), (texts[3], 2), (texts[1][:SPLIT_MIN + 4096], 3)]
    for text, threads in order:
        assert tok.encode(text, add_special_tokens=False, num_threads=threads) == \
            tok.encode(text, add_special_tokens=False, num_threads=1)


# Text that NFC changes: a decomposed "é" (composed), Hangul jamo
# (composed into a syllable), marks out of canonical order (reordered),
# and the Greek question mark, which becomes ';' (after a line break: a
# cut in the text and in its form).
NOT_NFC = ["cafe\u0301", "\u1100\u1161", "a\u0323\u0302", "\u037e"]


@pytest.mark.parametrize("change", NOT_NFC)
def test_nfc_parts_normalized_on_the_pool(change):
    """Qwen3 normalizes to NFC. A long segment is normalized part by part
    on its threads (cpp/src/tokenizer.cc, RoutePath): text NFC changes in
    any one part, right after a cut or right before one gives the ids of
    one thread and of the reference."""
    ref, tok = corpus.hf_pair("qwen3")
    base = texts_with_cuts()[0]
    assert len(base.encode()) >= SPLIT_MIN
    step = len(base) // PARTS
    texts = [base[:k * step] + change + base[k * step:] for k in range(PARTS)]
    texts.append(base.replace("\n", "\n" + change, 40))  # first in a part
    texts.append(base.replace("\n", change + "\n", 40))  # last before a cut
    texts.append(base)  # NFC already: every part encoded as it is
    texts.append(FILLER * (SPLIT_MIN // len(FILLER) + 1) + change)  # no line break: no cut, normalized whole
    assert_reference_ids_on_1_to_3_threads(ref, tok, texts)


def test_part_forms_that_join_across_a_cut_fall_back_to_the_whole(tmp_path):
    """o200k's punctuation run takes a '/' after line breaks. With NFKC,
    which makes '／' (fullwidth, a cut in the input) a '/', a part's form
    no longer splits where the input did: the segment is normalized whole
    and the ids are still the reference's."""
    import json

    spec = json.loads(corpus.file_path("tokenizers", "gpt-4o-o200k-hf", "tokenizer.json").read_text(encoding="utf-8"))
    spec["normalizer"] = {"type": "NFKC"}
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    ref, tok = corpus.hf_pair_at(path)
    base = texts_with_cuts()[0]
    texts = [base.replace("\n", ".\n\uff0f", k) for k in (1, 40)] + [base.replace("\n", "\n\uff21", 40)]
    assert_reference_ids_on_1_to_3_threads(ref, tok, texts)


def _split_info(tok):
    info = tok.debug_info()
    return int(info["split_encodes"]), int(info["split_pool_bytes"])


def test_shorter_texts_split_once_the_pool_has_encoded_long_ones():
    """A text of SPLIT_MIN_BYTES_WARM to SPLIT_MIN bytes is split only once
    the pool's threads have encoded parts of this tokenizer's long texts
    (their caches warm): never on a fresh tokenizer, nor on one thread;
    the ids are the reference's throughout."""
    ref, tok = corpus.hf_pair("llama3")
    long_text = texts_with_cuts()[0]
    mid = long_text[:len(long_text) // 2]  # four segments, each ending in a context
    assert _native.SPLIT_MIN_BYTES_WARM <= len(mid.encode()) < SPLIT_MIN
    want_mid, want_long = (ref.encode(t, add_special_tokens=False).ids for t in (mid, long_text))
    for _ in range(3):
        assert tok.encode(mid, add_special_tokens=False, num_threads=2) == want_mid
    assert _split_info(tok) == (0, 0)
    # Long texts until the pool has worked enough for `mid` to be split (a
    # pool thread takes parts whenever it wakes before the caller is done).
    for _ in range(40):
        splits = _split_info(tok)[0]
        assert tok.encode(mid, add_special_tokens=False, num_threads=2) == want_mid
        if _split_info(tok)[0] > splits:
            break
        assert tok.encode(long_text, add_special_tokens=False, num_threads=2) == want_long
    else:
        pytest.fail(f"never split after the pool encoded {_split_info(tok)[1]} bytes")
    splits = _split_info(tok)[0]
    assert tok.encode(mid, add_special_tokens=False, num_threads=1) == want_mid
    assert _split_info(tok)[0] == splits


def _lookups(tok):
    info = tok.debug_info()
    return int(info["piece_cache_hits"]) + int(info["piece_cache_misses"])


def test_one_thread_keeps_the_work_on_the_calling_thread():
    """The calling thread's cache counts every pre-token it looks up: with
    num_threads=1 that is every pre-token of the text (HF's count). (How
    many a second thread takes depends on when the kernel runs it.)"""
    ref, tok = corpus.hf_pair("llama3")
    text = texts_with_cuts()[0] * 4
    before = _lookups(tok)
    tok.encode(text, add_special_tokens=False, num_threads=1)
    assert _lookups(tok) - before == len(ref.pre_tokenizer.pre_tokenize_str(text))
    assert tok.encode(text, add_special_tokens=False, num_threads=2) == ref.encode(text, add_special_tokens=False).ids
    with pytest.raises(ValueError):
        tok.encode(text, num_threads=0)


_ENV_CHILD = r"""
import sys
sys.path[:0] = {path!r}
import corpus
ref, tok = corpus.hf_pair("llama3")
from test_long_split import texts_with_cuts, _lookups
text = texts_with_cuts()[0] * 4
before = _lookups(tok)
tok.encode(text, add_special_tokens=False)
print(_lookups(tok) - before, len(ref.pre_tokenizer.pre_tokenize_str(text)))
"""


def test_env_one_thread_keeps_the_work_on_the_calling_thread():
    code = _ENV_CHILD.format(path=[str(REPO / "tests" / "parity"), str(REPO / "tests")] + sys.path)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, MTOK_NUM_THREADS="1"))
    assert run.returncode == 0, run.stderr
    looked_up, pre_tokens = map(int, run.stdout.split())
    assert looked_up == pre_tokens
