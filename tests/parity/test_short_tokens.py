"""The short-token table (cpp/src/models/bpe/short_tokens.h): byte-level BPE
looks whole pre-tokens of up to 8 bytes up in a table read from the file
(section BSHT), or, for a file without it, built on a thread of its own
after the first encode, the raw index answering until then. Every short
token, and strings a byte away from one, must get the reference's ids from
either table, and the same ids before the built one is ready."""

import random

import pytest

import corpus
import mtok
from harness import assert_same, byte_level_decoder, exported, hide_sections

tokenizers = pytest.importorskip("tokenizers")

NAMES = ("llama3", "qwen3", "gpt-4o-o200k-hf", "gpt2")
MAX_BYTES = 8  # ShortTokens::kMaxBytes


def short_token_texts(ref, seed):
    """Every token of 1..8 raw bytes that is valid UTF-8, and near misses:
    each cut short, grown by a byte, or with its last byte changed."""
    dec = byte_level_decoder()
    rng = random.Random(seed)
    out = []
    for token in ref.get_vocab():
        if not all(c in dec for c in token):
            continue
        raw = bytes(dec[c] for c in token)
        if not 1 <= len(raw) <= MAX_BYTES:
            continue
        variants = [raw, raw[:-1], raw + bytes([rng.randrange(0x21, 0x7F)]),
                    raw[:-1] + bytes([rng.randrange(0x21, 0x7F)])]
        for v in variants:
            try:
                if v:
                    out.append(v.decode("utf-8"))
            except UnicodeDecodeError:
                pass
    return out


def wait_built(tok):
    """Waits until the table is built; debug_info()'s report of it (its size)."""
    info = corpus.settled_debug_info(tok)["bpe_short_tokens"]
    assert info[0].isdigit(), f"short-token table not built: {info}"
    return info


def without_the_section(name):
    """mtok.Tokenizer of the corpus tokenizer `name` from a file without
    BSHT: it builds the table itself."""
    data, _ = exported(("tokenizers", name, "tokenizer.json"))
    tok = mtok.Tokenizer.from_bytes(hide_sections(data, "BSHT"))
    tok.no_truncation()
    tok.no_padding()
    return tok


@pytest.mark.parametrize("table", ["file", "built"])
@pytest.mark.parametrize("name", NAMES)
def test_every_short_token_matches_hf(name, table):
    ref, tok = corpus.hf_pair(name)
    if table == "built":
        tok = without_the_section(name)
    texts = short_token_texts(ref, name)
    assert len(texts) > 50_000
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    tok.encode("warm up", add_special_tokens=False)
    info = wait_built(tok)
    assert int(info.split()[0]) > 30_000 and info.endswith(" KB")
    got = tok.encode_batch(texts, add_special_tokens=False)
    assert_same(f"{name} short tokens", texts, expected, got)


def test_the_file_table_is_there_at_load():
    _, tok = corpus.hf_pair("llama3")
    info = tok.debug_info()["bpe_short_tokens"]
    assert info.split()[0].isdigit() and "tokens of up to 8 bytes" in info, info


def test_reported_before_and_after_the_first_encode():
    ref, _ = corpus.hf_pair("llama3")
    tok = without_the_section("llama3")
    assert tok.debug_info()["bpe_short_tokens"] == "built at the first encode"
    texts = short_token_texts(ref, 1)[:20_000]
    # The first encodes run while the table is built (or before): the raw
    # index answers them, with the same ids.
    got = [tok.encode(t, add_special_tokens=False) for t in texts[:200]]
    expected = [e.ids for e in ref.encode_batch(texts[:200], add_special_tokens=False)]
    assert_same("llama3 short tokens, first encodes", texts[:200], expected, got)
    wait_built(tok)
    assert tok.encode_batch(texts[:200], add_special_tokens=False) == got


def test_tiktoken_rank_merges_use_it_too():
    tiktoken = pytest.importorskip("tiktoken")
    from tiktoken.load import load_tiktoken_bpe

    from mtok.convert.openai_encodings import ENCODING_SPECS

    base, _, pattern, specials, n_vocab = ENCODING_SPECS["o200k_base"]
    ranks = load_tiktoken_bpe(str(corpus.require("tiktoken", base + ".tiktoken")))
    ref = tiktoken.Encoding("o200k_base", pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials,
                            explicit_n_vocab=n_vocab)
    ours = mtok.get_encoding("o200k_base")
    ours.encode_ordinary("warm up")
    wait_built(ours._tokenizer)
    rng = random.Random(5)
    texts = []
    for raw in ranks:
        if 2 <= len(raw) <= MAX_BYTES + 2:
            texts.append(raw + bytes([rng.randrange(0x21, 0x7F)]))
    texts = [t.decode("utf-8", "replace") for t in texts]
    assert_same("o200k tiktoken short merges", texts, ref.encode_ordinary_batch(texts),
                ours.encode_ordinary_batch(texts))
