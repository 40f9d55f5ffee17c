"""A patched transformers tokenizer gives plain transformers' results:
__call__ and encode in every mode, decode, and the vocabulary."""

import pytest
from transformers_pairs import FOLDERS, pair, same_batch, same_call, texts

CALLS = [
    {},
    {"add_special_tokens": False},
    {"return_offsets_mapping": True, "return_special_tokens_mask": True, "return_attention_mask": True,
     "return_token_type_ids": True, "return_length": True},
    {"padding": True},
    {"padding": "max_length", "max_length": 48, "truncation": True},
    {"padding": True, "padding_side": "left", "pad_to_multiple_of": 8},
    {"truncation": True, "max_length": 12, "stride": 3, "return_overflowing_tokens": True,
     "return_offsets_mapping": True},
    {"padding": True, "return_tensors": "np"},
    {"truncation": True, "max_length": 20, "return_tensors": "np", "padding": "max_length"},
]
PAIR_CALLS = [
    {},
    {"truncation": "only_second", "max_length": 24, "padding": True},
    {"truncation": "longest_first", "max_length": 16, "return_overflowing_tokens": True, "stride": 2},
    {"return_offsets_mapping": True, "return_special_tokens_mask": True, "return_token_type_ids": True},
]


@pytest.mark.parametrize("name", FOLDERS)
def test_backend_is_mtok(name):
    import mtok.hf
    from transformers import PreTrainedTokenizerFast

    ref, ours = pair(name)
    assert isinstance(ours._tokenizer, mtok.hf.TransformersBackend)
    assert ours.backend_tokenizer is ours._tokenizer and ours._tokenizer._hf is None
    assert isinstance(ours, PreTrainedTokenizerFast) and type(ours) is type(ref)
    assert not isinstance(ref._tokenizer, mtok.hf.TransformersBackend)


@pytest.mark.parametrize("name", FOLDERS)
@pytest.mark.parametrize("kwargs", CALLS, ids=lambda k: ",".join(k) or "plain")
def test_call_batch_and_single(name, kwargs):
    ref, ours = pair(name)
    batch = list(texts())
    same_batch(ref(batch, **kwargs), ours(batch, **kwargs))
    for text in batch[:6] + ["", " "]:
        same_batch(ref(text, **kwargs), ours(text, **kwargs))


@pytest.mark.parametrize("name", FOLDERS)
@pytest.mark.parametrize("kwargs", PAIR_CALLS, ids=lambda k: ",".join(k) or "plain")
def test_call_pairs(name, kwargs):
    ref, ours = pair(name)
    firsts, seconds = list(texts()[:12]), list(texts()[12:24])
    same_call(ref, ours, firsts, seconds, **kwargs)
    same_call(ref, ours, firsts[0], seconds[0], **kwargs)


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:
        return type(e)


@pytest.mark.parametrize("name", FOLDERS)
def test_encodings_positions(name):
    """tokens(), word_ids(), sequence_ids() and the char/word/token maps of
    the BatchEncoding (made lazily on the native path)."""
    ref, ours = pair(name)
    batch = list(texts()[:8])
    a, b = ref(batch, batch[::-1]), ours(batch, batch[::-1])
    for i in range(len(batch)):
        assert a.tokens(i) == b.tokens(i)
        assert a.word_ids(i) == b.word_ids(i)
        assert a.sequence_ids(i) == b.sequence_ids(i)
        for t in range(0, len(a.tokens(i)), 7):
            assert a.token_to_word(i, t) == b.token_to_word(i, t)
            assert a.token_to_chars(i, t) == b.token_to_chars(i, t)
            assert a.token_to_sequence(i, t) == b.token_to_sequence(i, t)
        for c in range(0, len(batch[i]), 11):
            for seq in (0, 1):
                assert a.char_to_token(i, c, seq) == b.char_to_token(i, c, seq)
                assert a.char_to_word(i, c, seq) == b.char_to_word(i, c, seq)
        for w in range(4):
            assert a.word_to_tokens(i, w) == b.word_to_tokens(i, w)
            assert outcome(a.word_to_chars, i, w) == outcome(b.word_to_chars, i, w)
    assert ref.tokenize(batch[0]) == ours.tokenize(batch[0])
    assert a.n_sequences == b.n_sequences


@pytest.mark.parametrize("name", FOLDERS)
def test_encode_and_decode(name):
    ref, ours = pair(name)
    for text in texts():
        ids = ref.encode(text)
        assert ours.encode(text) == ids
        assert ours.encode(text, add_special_tokens=False) == ref.encode(text, add_special_tokens=False)
        for skip in (False, True):
            for clean in (False, True):
                kw = {"skip_special_tokens": skip, "clean_up_tokenization_spaces": clean}
                assert ours.decode(ids, **kw) == ref.decode(ids, **kw)
    rows = ref(list(texts()))["input_ids"]
    assert ours.batch_decode(rows) == ref.batch_decode(rows)
    assert ours.batch_decode(rows, skip_special_tokens=True) == ref.batch_decode(rows, skip_special_tokens=True)


@pytest.mark.parametrize("name", FOLDERS)
def test_unknown_ids_decode_as_hf(name):
    """vLLM samples ids past the vocabulary (Qwen3's embedding is larger)."""
    ref, ours = pair(name)
    past = len(ref) + 100
    for ids in ([past], [5, past, 6], [past, past + 1], [2**31]):
        assert ours.decode(ids) == ref.decode(ids)
        assert ours.convert_ids_to_tokens(ids) == ref.convert_ids_to_tokens(ids)
    assert ours.convert_ids_to_tokens(past) == ref.convert_ids_to_tokens(past)


@pytest.mark.parametrize("name", FOLDERS)
def test_vocabulary(name):
    ref, ours = pair(name)
    assert len(ours) == len(ref) and ours.vocab_size == ref.vocab_size
    vocab = ref.get_vocab()
    assert ours.get_vocab() == vocab
    assert ours.get_added_vocab() == ref.get_added_vocab()
    assert {i: repr(t) for i, t in ours.added_tokens_decoder.items()} == {
        i: repr(t) for i, t in ref.added_tokens_decoder.items()}
    ids = list(range(0, len(ref), max(1, len(ref) // 5000)))
    assert ours.convert_ids_to_tokens(ids) == ref.convert_ids_to_tokens(ids)
    assert ours.convert_ids_to_tokens(ids, skip_special_tokens=True) == ref.convert_ids_to_tokens(
        ids, skip_special_tokens=True)
    tokens = ref.convert_ids_to_tokens(ids) + ["not-a-token-at-all", ""]
    assert ours.convert_tokens_to_ids(tokens) == ref.convert_tokens_to_ids(tokens)
    assert ours.convert_tokens_to_string(tokens[:50]) == ref.convert_tokens_to_string(tokens[:50])
    assert ours.num_special_tokens_to_add(False) == ref.num_special_tokens_to_add(False)
    assert ours.num_special_tokens_to_add(True) == ref.num_special_tokens_to_add(True)
    assert ours.all_special_ids == ref.all_special_ids
