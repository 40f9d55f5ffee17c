"""Truncation and padding settings: HF's names, dicts, defaults and errors."""

import pytest

from hf_pairs import pair


def test_dicts_match_hf():
    ref, tok = pair("bert-base-uncased")
    try:
        for kwargs in [dict(max_length=10), dict(max_length=20, stride=3, strategy="only_first", direction="left")]:
            ref.enable_truncation(**kwargs)
            tok.enable_truncation(**kwargs)
            assert tok.truncation == ref.truncation
        for kwargs in [dict(), dict(direction="left", pad_id=1, pad_type_id=2, pad_token="<p>", length=9,
                                    pad_to_multiple_of=4)]:
            ref.enable_padding(**kwargs)
            tok.enable_padding(**kwargs)
            assert tok.padding == ref.padding
        tok.no_truncation()
        tok.no_padding()
        assert tok.truncation is None and tok.padding is None
    finally:
        for t in (ref, tok):
            t.no_truncation()
            t.no_padding()


def test_errors_match_hf():
    ref, tok = pair("bert-base-uncased")
    for kwargs in [dict(max_length=5, stride=4), dict(max_length=10, strategy="bogus"),
                   dict(max_length=10, direction="up")]:
        with pytest.raises(Exception) as hf_error:
            ref.enable_truncation(**kwargs)
        with pytest.raises(ValueError) as error:
            tok.enable_truncation(**kwargs)
        assert str(error.value) == str(hf_error.value)
    with pytest.raises(ValueError):
        tok.enable_padding(direction="up")
    tok.enable_truncation(10, strategy="only_second")
    try:
        with pytest.raises(Exception, match="Second sequence not provided"):
            tok.encode("one two three four five six seven eight nine ten eleven twelve")
    finally:
        tok.no_truncation()


def test_pair_must_be_text():
    _, tok = pair("bert-base-uncased")
    with pytest.raises(TypeError):
        tok.encode("a", False)
