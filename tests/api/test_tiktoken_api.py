"""mtok.tiktoken against tiktoken itself: ids, special-token handling and
errors, decoding, offsets and metadata, on corpus text."""

import functools
import pickle
import random

import pytest

import corpus
import mtok.tiktoken as mtiktoken

tiktoken = pytest.importorskip("tiktoken")

NAMES = ["gpt2", "r50k_base", "p50k_base", "p50k_edit", "cl100k_base", "o200k_base", "o200k_harmony"]


@functools.lru_cache(maxsize=None)
def reference(name):
    """tiktoken's Encoding from the corpus rank file (tiktoken would download it)."""
    from tiktoken.load import load_tiktoken_bpe

    from mtok.convert.openai_encodings import ENCODING_SPECS

    base, _, pattern, specials, n_vocab = ENCODING_SPECS[name]
    ranks = load_tiktoken_bpe(str(corpus.require("tiktoken", base + ".tiktoken")))
    return tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials,
                             explicit_n_vocab=n_vocab)


def texts(n=150):
    strings = list(corpus.parity_strings())
    if not strings:
        pytest.skip("corpus text not found")
    rng = random.Random(1)
    return [s[:3000] for s in rng.sample(strings, n)]


@pytest.mark.parametrize("name", NAMES)
def test_encode_decode_parity(name):
    ref, enc = reference(name), mtiktoken.get_encoding(name)
    assert (enc.n_vocab, enc.max_token_value, enc.eot_token, enc.special_tokens_set) == \
        (ref.n_vocab, ref.max_token_value, ref.eot_token, ref.special_tokens_set)
    sample = texts()
    assert enc.encode_ordinary_batch(sample) == ref.encode_ordinary_batch(sample)
    for text in sample[:40]:
        ids = ref.encode(text, disallowed_special=())
        assert enc.encode(text, disallowed_special=()) == ids
        assert enc.decode(ids) == ref.decode(ids)
        assert enc.decode_tokens_bytes(ids) == ref.decode_tokens_bytes(ids)
        assert enc.decode_with_offsets(ids) == ref.decode_with_offsets(ids)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_harmony", "p50k_edit"])
def test_special_tokens(name):
    ref, enc = reference(name), mtiktoken.get_encoding(name)
    specials = sorted(ref.special_tokens_set)[:4]
    text = " hello ".join(specials) + " world" + specials[0]
    for kwargs in [dict(allowed_special="all"), dict(disallowed_special=()),
                   dict(allowed_special={specials[0]}, disallowed_special=()),
                   dict(allowed_special=set(specials[:2]), disallowed_special=set())]:
        assert enc.encode(text, **kwargs) == ref.encode(text, **kwargs)
        assert enc.encode_batch([text, "x"], **kwargs) == ref.encode_batch([text, "x"], **kwargs)
    for kwargs in [dict(), dict(disallowed_special={specials[1]}), dict(allowed_special={specials[0]})]:
        with pytest.raises(ValueError) as expected:
            ref.encode(text, **kwargs)
        with pytest.raises(ValueError) as actual:
            enc.encode(text, **kwargs)
        assert str(actual.value) == str(expected.value)
    for s in specials:
        assert enc.encode_single_token(s) == ref.encode_single_token(s)


def test_errors_and_single_tokens():
    ref, enc = reference("cl100k_base"), mtiktoken.get_encoding("cl100k_base")
    for token in [0, 1000, 100255, 100257, 100276]:
        assert enc.decode_single_token_bytes(token) == ref.decode_single_token_bytes(token)
        assert enc.encode_single_token(ref.decode_single_token_bytes(token)) == token
    for bad in [100256, 100261, 10**6]:
        with pytest.raises(KeyError):
            ref.decode_single_token_bytes(bad)
        with pytest.raises(KeyError):
            enc.decode_single_token_bytes(bad)
        with pytest.raises(KeyError):
            enc.decode([1, bad])
    with pytest.raises(KeyError):
        enc.encode_single_token(b"not one token at all")
    assert enc.encode("a\ud800b") == ref.encode("a\ud800b")
    for data in [b"\x80", b" \xec\x8b\xa4\xed", "héllo".encode()[:-1], b"hello \xff\xfe world"]:
        assert enc._encode_bytes(data) == ref._encode_bytes(data)
    assert enc._encode_single_piece("helloqqqq") == ref._encode_single_piece("helloqqqq")


def test_model_names_and_pickle():
    for model in ["gpt2", "text-davinci-003", "gpt-3.5-turbo-0301", "gpt-4", "gpt-4o", "gpt-4o-mini-2024",
                  "o1", "gpt-oss-120b", "text-embedding-3-small", "ft:gpt-4o:x"]:
        assert mtiktoken.encoding_name_for_model(model) == tiktoken.encoding_name_for_model(model)
    with pytest.raises(KeyError):
        mtiktoken.encoding_for_model("no-such-model")
    enc = mtiktoken.get_encoding("r50k_base")
    assert len(pickle.dumps(enc)) < 200  # built-in encodings pickle by name
    assert pickle.loads(pickle.dumps(enc)).encode("hello world") == [31373, 995]
    custom = mtiktoken.Encoding("custom", pat_str=enc._pat_str, mergeable_ranks=enc._mergeable_ranks,
                                special_tokens={"<|x|>": 100_000})
    again = pickle.loads(pickle.dumps(custom))
    assert again.encode("<|x|> hi", allowed_special="all") == custom.encode("<|x|> hi", allowed_special="all")
    assert custom.encode("<|x|>", allowed_special="all") == [100_000]
