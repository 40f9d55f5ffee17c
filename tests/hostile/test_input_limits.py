"""What encode does with hostile input: invalid UTF-8, lone surrogates,
empty text, huge text, and special-token text (docs/hostile_input.md)."""

import time

import pytest

import mtok


# --- invalid UTF-8 --------------------------------------------------------------

@pytest.mark.parametrize("data, offset", [
    (b"\xff", 0),
    (b"abc\x80", 3),
    (b"ok \xc3", 3),                 # truncated 2-byte sequence at the end
    (b"x\xe2\x82", 1),               # truncated 3-byte sequence
    (b"ab\xc0\xaf", 2),              # overlong '/'
    (b"abcd\xed\xa0\x80", 4),        # UTF-8-encoded surrogate
    (b"\xf4\x90\x80\x80", 0),        # beyond U+10FFFF
    ("héllo".encode() + b"\xfe", 6),
])
def test_invalid_utf8_bytes_name_the_offset(gpt2_pair, data, offset):
    _, tok = gpt2_pair
    with pytest.raises(mtok.EncodeError) as info:
        tok.encode(data)
    assert str(info.value) == f"input is not valid UTF-8 (first bad byte at offset {offset})"


def test_valid_bytes_equal_str(gpt2_pair):
    _, tok = gpt2_pair
    text = "héllo wörld 日本 😀"
    assert tok.encode(text.encode()) == tok.encode(text)


# --- lone surrogates --------------------------------------------------------------

SURROGATES = ["\ud800", "a\udfffb", "x \ud83d", "\udc00\ud800 y", "ok\ud83d\ude00ok"]


@pytest.mark.parametrize("text", SURROGATES)
def test_lone_surrogates_like_tiktoken(cl100k_pair, text):
    ref, enc = cl100k_pair
    assert enc.encode(text) == ref.encode(text)
    assert enc.encode_ordinary(text) == ref.encode_ordinary(text)


@pytest.mark.parametrize("text", SURROGATES)
def test_lone_surrogates_replaced_in_tokenizer(gpt2_pair, text):
    # HF refuses such a str (TypeError); mtok replaces each lone surrogate by
    # U+FFFD as tiktoken does, so the ids are HF's ids of the replaced text.
    ref, tok = gpt2_pair
    with pytest.raises(TypeError):
        ref.encode(text)
    cleaned = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    assert tok.encode(text) == ref.encode(cleaned).ids
    assert tok.encode_batch([text, "plain"]) == [ref.encode(cleaned).ids, ref.encode("plain").ids]


# --- empty input ----------------------------------------------------------------

def test_empty_input(gpt2_pair, cl100k_pair):
    ref, tok = gpt2_pair
    assert tok.encode("") == ref.encode("").ids == []
    assert tok.encode(b"") == []
    assert tok.decode([]) == ""
    assert tok.encode_batch([]) == []
    assert tok.encode_batch(["", ""]) == [[], []]
    tref, enc = cl100k_pair
    assert enc.encode("") == tref.encode("") == []
    assert enc.decode([]) == ""


# --- special tokens as text -----------------------------------------------------------

def test_every_special_token_as_text(cl100k_pair):
    ref, enc = cl100k_pair
    for token in sorted(enc.special_tokens_set):
        text = f"a {token} b{token}"
        with pytest.raises(ValueError, match="disallowed special token"):
            enc.encode(text)
        assert enc.encode(text, allowed_special="all") == ref.encode(text, allowed_special="all")
        assert enc.encode(text, allowed_special={token}) == ref.encode(text, allowed_special={token})
        assert enc.encode(text, disallowed_special=()) == ref.encode(text, disallowed_special=())
        assert enc.encode_ordinary(text) == ref.encode_ordinary(text)
        others = enc.special_tokens_set - {token}
        assert enc.encode(text, allowed_special=others, disallowed_special=()) == \
            ref.encode(text, allowed_special=others, disallowed_special=())


def test_specials_glued_and_repeated(cl100k_pair):
    ref, enc = cl100k_pair
    text = "<|endoftext|><|endoftext|><|endo<|endoftext|>ftext|><|fim_prefix|>" * 50
    assert enc.encode(text, allowed_special="all") == ref.encode(text, allowed_special="all")
    assert enc.encode(text, disallowed_special=()) == ref.encode(text, disallowed_special=())


# --- a 100 MB input -----------------------------------------------------------------

def test_100_mb_input(gpt2_pair):
    # Long dash runs become few, long tokens, so the id list stays small
    # (about 2M ids) while the input is 100 MB of real pre-tokens.
    ref, tok = gpt2_pair
    unit = "-" * 63 + "\n"
    expected_unit = ref.encode(unit).ids
    text = unit * (100 * 2**20 // len(unit))
    start = time.perf_counter()
    ids = tok.encode(text)
    elapsed = time.perf_counter() - start
    assert ids == expected_unit * (len(text) // len(unit))
    assert elapsed < 60, f"100 MB took {elapsed:.1f}s"
    del ids, text
