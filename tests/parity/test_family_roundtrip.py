"""Hypothesis: on random Unicode text, mtok's ids and decode(encode(s))
equal the reference's, for each model family of this issue (HF Unigram,
WordPiece and byte-fallback BPE; SentencePiece Unigram and BPE)."""

import functools

import pytest
from hypothesis import given, settings, strategies as st

import corpus
import mtok

tokenizers = pytest.importorskip("tokenizers")
spm = pytest.importorskip("sentencepiece")

HF = ["xlm-roberta", "t5-small", "bert-base-uncased", "mistral-7b-v0.1"]
SPM = ["t5-small/spiece.model", "llama2/tokenizer.model", "sentencepiece-test/test_ja_model.model"]

# Any scalar value but surrogates, biased towards spaces, marks and CJK.
TEXT = st.text(
    st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(" \t\n\u3000\u00a0\u0301\u2581"),
              st.characters(min_codepoint=0x3040, max_codepoint=0x30ff)),
    max_size=40)


@functools.lru_cache(maxsize=None)
def hf_pair(name):
    return corpus.hf_pair(name)


@functools.lru_cache(maxsize=None)
def spm_pair(name):
    path = corpus.file_path("tokenizers", *name.split("/"))
    return spm.SentencePieceProcessor(model_file=str(path)), mtok.Tokenizer.from_file(path)


@pytest.mark.parametrize("name", HF)
@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_hf_round_trip(name, text):
    ref, ours = hf_pair(name)
    ids = ref.encode(text).ids
    assert ours.encode(text) == ids
    for skip in (False, True):
        assert ours.decode(ours.encode(text), skip_special_tokens=skip) == ref.decode(ids, skip_special_tokens=skip)


@pytest.mark.parametrize("name", SPM)
@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_sentencepiece_round_trip(name, text):
    ref, ours = spm_pair(name)
    ids = ref.encode(text)
    assert ours.encode(text) == ids
    assert ours.decode(ours.encode(text)) == ref.decode(ids)
