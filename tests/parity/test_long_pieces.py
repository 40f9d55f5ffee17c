"""Long pre-tokens against the references. Byte-level BPE merges a piece of
more than 255 symbols (ByteBpe's kSmallParts: bytes, or characters that
start as one token) with MergeQueue, rank buckets whose pop order must be
exactly HF's heap order (lowest rank, leftmost on ties), and shorter ones
with a scan of 8-bit positioned merge keys: these compare whole ids on
long synthetic pieces, at lengths around both limits (in symbols, and the
4 * 255 bytes past which no piece is tried as short) and well past them
(and at the short-word loop's switch from a plain to a vector minimum of
its merge keys, 5 symbols), for the corpus
byte-level tokenizers (vs HF tokenizers) and the OpenAI encodings (vs
tiktoken), and on a synthetic merge table that is not in natural order."""

import random
import string

import pytest

import corpus
import mtok
from harness import assert_same, byte_level_bpe, compare_with_hf

tokenizers = pytest.importorskip("tokenizers")

SMALL_PARTS = 255  # symbols; kSmallParts in cpp/src/models/bpe/byte_bpe.cc
SCAN_SWITCH = 5  # bytes: keys of 4 symbols scanned plainly, more four at a time (merge_key.h)
# In characters: around SMALL_PARTS for one-byte characters, for three-byte
# ones (85 of them are 255 symbols unless some fold), and for the byte cap
# (340 three-byte characters are 1020 bytes); 128 was the earlier limit.
LENGTHS = [SCAN_SWITCH, SCAN_SWITCH + 1, 48, 84, 85, 86, 97, 127, 128, 129, SMALL_PARTS - 1, SMALL_PARTS,
           SMALL_PARTS + 1, SMALL_PARTS + 2, 340, 341, 1000, 20000]


def _rand(alphabet, n, seed):
    return "".join(random.Random(seed).choices(alphabet, k=n))


# Each maker gives a string of n characters; most are one pre-token under
# every pattern (letters, or one whitespace run).
KINDS = {
    "one_char": lambda n: "a" * n,
    "one_space_run": lambda n: " " * n,
    "newlines": lambda n: "\n" * n,
    "mixed_whitespace": lambda n: (" \t \n\r\n  " * (n // 8 + 1))[:n],
    "pattern_ab": lambda n: ("ab" * n)[:n],
    "pattern_abcab": lambda n: ("abcab" * n)[:n],
    "pattern_aab": lambda n: ("aab" * n)[:n],
    "random_lower": lambda n: _rand(string.ascii_lowercase, n, n),
    "random_letters": lambda n: _rand(string.ascii_letters, n, n + 1),
    "random_ab": lambda n: _rand("ab", n, n + 2),
    "random_latin1": lambda n: random.Random(n + 3).randbytes(n).decode("latin-1"),
    "latin1_letters": lambda n: _rand("àáâãäåæçèéêëìíîïñòóôõöøùúûüý", n, n + 4),
    "cjk": lambda n: _rand("的一是不了人我在有他这中", n, n + 5),
    # Characters that start as one token (char_fold.h) next to ones that start as bytes.
    "cjk_wide": lambda n: _rand("的一是不了人我在有他这中朝日月鬱齉龘㐀丂乛亅", n, n + 7),
    "cyrillic": lambda n: _rand("абвгдежзийклмнопрстуфхцчшщъыьэюяё", n, n + 8),
    "digits": lambda n: _rand(string.digits, n, n + 6),
    "one_digit": lambda n: "7" * n,
}


def texts():
    out = [make(n) for make in KINDS.values() for n in LENGTHS]
    # 200,000 symbols take more than MergeLarge's 2 MB (12 bytes each), so
    # these two run on the symbol array it keeps on 2 MB pages.
    out.append("a" * 200_000)
    out.append(_rand(string.ascii_letters, 200_000, 7))
    return out


HF_NAMES = ["gpt2", "llama3", "qwen3", "gpt-4o-o200k-hf"]


@pytest.mark.parametrize("name", HF_NAMES)
def test_long_pieces_match_hf(name):
    ref, ours = corpus.hf_pair(name)
    inputs = texts()
    expected = [e.ids for e in ref.encode_batch(inputs, add_special_tokens=False)]
    actual = [ours.encode(t, add_special_tokens=False) for t in inputs]
    assert_same(f"long pieces {name}", inputs, expected, actual)


@pytest.mark.parametrize("name", ["r50k_base", "cl100k_base", "o200k_base"])
def test_long_pieces_match_tiktoken(name):
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    from mtok.convert.openai_encodings import ENCODING_SPECS

    base, _, pattern, specials, n_vocab = ENCODING_SPECS[name]
    ranks = load_tiktoken_bpe(str(corpus.require("tiktoken", base + ".tiktoken")))
    ref = tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials,
                            explicit_n_vocab=n_vocab)
    ours = mtok.get_encoding(name)
    inputs = texts()
    expected = ref.encode_ordinary_batch(inputs)
    actual = [ours.encode_ordinary(t) for t in inputs]
    assert_same(f"long pieces tiktoken {name}", inputs, expected, actual)


def _shuffled_merges(seed, alphabet="abc", count=24):
    """Merges that build random tokens from random pairs of earlier ones,
    then shuffled: a merge often creates a pair of lower rank than itself,
    several pairs build the same token, and tokens repeat inside tokens."""
    rng = random.Random(seed)
    tokens, merges = list(alphabet), []
    while len(merges) < count:
        left, right = rng.choice(tokens), rng.choice(tokens)
        if (left, right) in merges or len(left + right) > 12:
            continue
        merges.append((left, right))
        if left + right not in tokens:
            tokens.append(left + right)
    rng.shuffle(merges)
    return merges


def test_unnatural_merge_order_matches_hf(tmp_path):
    # "b c" (rank 2) makes "a bc" (rank 0); "a bc" and "ab c" both make abc.
    merges = [("a", "bc"), ("c", "a"), ("b", "c"), ("ab", "c"), ("a", "b"), ("abc", "abc"),
              ("a", "a"), ("aa", "aa"), ("ca", "b"), ("cab", "c"), ("aaaa", "a"), ("b", "b"),
              ("abcabc", "a"), ("bb", "c"), ("aa", "bc")]
    ref = byte_level_bpe(merges)
    assert ref.encode("abc").ids == [ref.token_to_id("abc")]
    inputs = [_rand(alpha, n, n * 7 + len(alpha))
              for alpha in ("abc", "ab", "aab", "abcc", "ac")
              for n in LENGTHS + [5000]]
    inputs += [("abc" * n)[:n] for n in LENGTHS] + ["a" * n for n in LENGTHS]
    compare_with_hf(byte_level_bpe(merges), inputs, tmp_path, "long pieces, unnatural merge order")


@pytest.mark.parametrize("seed", range(40))
def test_shuffled_merge_tables_match_hf(tmp_path, seed):
    merges = _shuffled_merges(seed)
    rng = random.Random(seed)
    inputs = [_rand(alpha, n, rng.random()) for alpha in ("abc", "ab", "aabc")
              for n in (127, 129, SMALL_PARTS - 1, SMALL_PARTS + 1, 300, 3000)]
    # Runs of one token, spelled out: the same pair many times over.
    inputs += [(left + right) * (600 // len(left + right)) for left, right in merges[:6]]
    compare_with_hf(byte_level_bpe(merges), inputs, tmp_path, f"long pieces, shuffled merges (seed {seed})")

