"""Streaming decode returns exactly the full decode, piece by piece, never
half a character, and the same pieces as HF's DecodeStream."""

import pytest

import mtok
from hf_pairs import NAMES, pair, sample

MULTILINGUAL = [
    "Hello 👋🏽 world! 👩‍👩‍👧 family, 🇫🇷 flag",
    "日本語のテキストと絵文字🎌を混ぜる",
    "Ünïcödé — “quotes” … and ½ ² Ⅻ",
    "مرحبا بالعالم 🌍 שלום עולם",
    "Привет, мир! Tiếng Việt có dấu.",
    "emoji only: 😀😃😄😁😆😅🤣😂🙂🙃",
]


def stream(tokenizer, ids, stream_cls, skip=False):
    s = stream_cls(skip_special_tokens=skip)
    return [s.step(tokenizer, i) for i in ids]


@pytest.mark.parametrize("name", NAMES)
def test_stream_equals_full_decode(name):
    ref, tok = pair(name)
    from tokenizers.decoders import DecodeStream as HFDecodeStream

    texts = MULTILINGUAL + [t for t in sample(40, max_chars=300) if t.strip()]
    for text in texts:
        ids = tok.encode(text)
        for skip in (False, True):
            pieces = stream(tok, ids, mtok.DecodeStream, skip)
            assert pieces == stream(ref, ids, HFDecodeStream, skip), text
            joined = "".join(p for p in pieces if p is not None)
            assert tok.decode(ids, skip).startswith(joined)
            assert all(p is None or "\ufffd" not in p[-1:] for p in pieces)


def test_stream_accepts_lists_and_context():
    _, tok = pair("gpt2")
    ids = tok.encode("Hello 👋🏽 world")
    s = mtok.DecodeStream()
    out = [s.step(tok, ids[:3]), s.step(tok, ids[3:])]
    assert "".join(p for p in out if p) == "Hello 👋🏽 world"
    s = mtok.DecodeStream(ids=ids[:1])
    assert "".join(p for p in (s.step(tok, i) for i in ids[1:]) if p) == tok.decode(ids)[len(tok.decode(ids[:1])):]
