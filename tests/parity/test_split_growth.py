"""When a split encode's caches grow (PieceCache::GrowthPays,
cpp/src/fast_paths/piece_cache.h). In a split every CPU encodes, so the
tables grow only once the cache gives up pre-tokens that come back: one
long document of new text keeps the tables a fresh cache starts with
(the same text on one thread grows them), while text encoded again after
the cache gave it up grows them. The ids are the reference's either way.
debug_info() reports the calling thread's cache."""

import random

import pytest

import corpus

FIRST_TABLES = 2.7 * 2**20  # a fresh cache's tables (piece_cache.h, kShortBits)
GROWN = 8 * 2**20  # past the first tables with every ring and the ghost bits in use


def lines(words, per_line=12):
    """Lines of words: a split cuts after a line break before a letter."""
    return "".join(" ".join(words[i:i + per_line]) + "\n" for i in range(0, len(words), per_line))


def random_word(rng):
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 12)))


def cache_bytes(tok):
    return int(tok.debug_info()["piece_cache_bytes"])


def test_a_split_of_new_text_keeps_the_first_tables():
    rng = random.Random(7)
    text = lines([random_word(rng) for _ in range(180_000)])  # 1.6 MB, nearly every word new
    ref, split = corpus.hf_pair("llama3")
    _, alone = corpus.hf_pair("llama3")
    want = ref.encode(text, add_special_tokens=False).ids
    assert split.encode(text, add_special_tokens=False, num_threads=2) == want
    assert alone.encode(text, add_special_tokens=False, num_threads=1) == want
    assert cache_bytes(alone) > GROWN, "one thread: the tables grow"
    assert FIRST_TABLES < cache_bytes(split) < GROWN, "a split of new text: the first tables stay"


def test_text_encoded_again_grows_a_split_cache():
    rng = random.Random(11)
    vocab = [random_word(rng) for _ in range(200_000)]
    # Zipf's law, as words in text: many return soon, past what four ways a set keep.
    text = lines(rng.choices(vocab, [1 / (k + 1) for k in range(len(vocab))], k=250_000))
    ref, ours = corpus.hf_pair("llama3")
    want = ref.encode(text, add_special_tokens=False).ids
    sizes = []
    for _ in range(4):
        assert ours.encode(text, add_special_tokens=False, num_threads=2) == want
        sizes.append(cache_bytes(ours))
    assert sizes[-1] > GROWN, f"the cache must grow once its pre-tokens come back: {sizes}"


@pytest.mark.parametrize("threads", [1, 2])
def test_growth_in_a_split_keeps_the_ids(threads):
    """New text, then text seen before, then both, on a cache that grows in
    a split between them: every encode gives the reference's ids."""
    rng = random.Random(13)
    vocab = [random_word(rng) for _ in range(60_000)]
    seen = lines(rng.choices(vocab, k=120_000))
    new = lines([random_word(rng) for _ in range(60_000)])
    ref, ours = corpus.hf_pair("llama3")
    for text in (seen, new, seen, seen + new, new):
        assert ours.encode(text, add_special_tokens=False, num_threads=threads) == \
            ref.encode(text, add_special_tokens=False).ids
