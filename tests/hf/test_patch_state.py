"""A patched tokenizer across its life: tokens added, saved and reloaded,
copied, pickled, streamed as vLLM does, and used from several threads."""

import copy
import pickle
import threading

import pytest
from transformers_pairs import FOLDERS, SMALL, load_plain, pair, same_batch, texts


@pytest.mark.parametrize("name", SMALL + ("qwen3",))
def test_add_tokens_then_encode_and_decode(name):
    from tokenizers import AddedToken

    ref, ours = (copy.deepcopy(t) for t in pair(name))
    new = ["<mtok-new>", AddedToken("zebra-crossing", lstrip=True, rstrip=True),
           AddedToken("qq", single_word=True), AddedToken("ÅnGström", normalized=True), "hello"]
    assert ours.add_tokens(new) == ref.add_tokens(new)
    assert ours.add_tokens(new) == ref.add_tokens(new)  # again: nothing new
    specials = {"additional_special_tokens": ["<|mtok-special|>", AddedToken("[SEP2]", lstrip=True)]}
    assert ours.add_special_tokens(specials) == ref.add_special_tokens(specials)
    assert len(ours) == len(ref) and ours.get_vocab() == ref.get_vocab()
    assert {i: repr(t) for i, t in ours.added_tokens_decoder.items()} == {
        i: repr(t) for i, t in ref.added_tokens_decoder.items()}
    lines = [f"a<mtok-new>b zebra-crossing  qq xqq ångström <|mtok-special|>{t} [SEP2] hello"
             for t in texts()[:10]]
    same_batch(ref(lines, return_offsets_mapping=True), ours(lines, return_offsets_mapping=True))
    for row in ref(lines)["input_ids"]:
        for skip in (False, True):
            assert ours.decode(row, skip_special_tokens=skip) == ref.decode(row, skip_special_tokens=skip)
    same_batch(ref(lines, split_special_tokens=True), ours(lines, split_special_tokens=True))


@pytest.mark.parametrize("name", SMALL)
def test_save_pretrained_then_plain_reload(name, tmp_path):
    """What the patched tokenizer saves loads in plain transformers to the
    ids plain transformers' own save gives."""
    ref, ours = (copy.deepcopy(t) for t in pair(name))
    for tok in (ref, ours):
        tok.add_tokens(["<saved-token>"])
    ours.save_pretrained(tmp_path / "ours")
    ref.save_pretrained(tmp_path / "ref")
    a, b = load_plain(str(tmp_path / "ref")), load_plain(str(tmp_path / "ours"))
    lines = [t + " <saved-token>" for t in texts()]
    assert b(lines)["input_ids"] == a(lines)["input_ids"]
    # HF's own save and reload may read a Unigram score an ulp away (its
    # JSON float parser), so a reload is held to plain transformers' reload,
    # and the live tokenizers to each other.
    assert ours(lines)["input_ids"] == ref(lines)["input_ids"]


@pytest.mark.parametrize("name", FOLDERS)
def test_deepcopy_and_pickle(name):
    import mtok.hf

    ref, ours = pair(name)
    lines = list(texts())
    for clone_of in (copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))):
        theirs, clone = clone_of(ref), clone_of(ours)
        assert isinstance(clone._tokenizer, mtok.hf.TransformersBackend)
        expected = theirs(lines, return_offsets_mapping=True)
        same_batch(expected, clone(lines, return_offsets_mapping=True))
        assert clone.decode(expected["input_ids"][0]) == theirs.decode(expected["input_ids"][0])
    copied = copy.deepcopy(ours)
    copied.add_tokens(["<only-in-the-copy>"])
    assert len(copied) == len(ours) + 1 and len(ours) == len(ref)


def test_copies_move_unigram_ties_as_hf_copies_do():
    """HF copies and pickles a Tokenizer through its JSON text and reads the
    scores back with serde_json's parser, an ulp away for a quarter of
    t5-small's (transformers builds it from spiece.model, with exact
    scores): runs of '-' then tie differently in the copy than in the
    original. The patched copies move the same way."""
    ref, ours = pair("t5-small")
    assert ours._tokenizer._reread_spec() is not None  # the scores do move
    lines = ["-" * n + tail for n in range(1, 40) for tail in ("", " x", "a")]
    original = ref(lines)["input_ids"]
    for clone_of in (copy.deepcopy, lambda t: pickle.loads(pickle.dumps(t))):
        theirs, clone = clone_of(ref), clone_of(ours)
        assert clone(lines)["input_ids"] == theirs(lines)["input_ids"]
        assert theirs(lines)["input_ids"] != original  # HF's copy did tie differently
        again = clone_of(clone)  # a copy of a copy moves nothing more
        assert again._tokenizer._reread_spec() is None
        assert again(lines)["input_ids"] == theirs(lines)["input_ids"]
    assert ours(lines)["input_ids"] == original


def _stream(tokenizer, backend, ids, skip):
    from tokenizers.decoders import DecodeStream

    stream = DecodeStream(skip_special_tokens=skip)
    return [stream.step(backend, i) for i in ids]


@pytest.mark.parametrize("name", FOLDERS)
def test_decode_stream_as_vllm(name):
    """tokenizers.decoders.DecodeStream(...).step(tok._tokenizer, id) on the
    mtok backend gives HF's steps, unknown ids included ("" or None)."""
    import tokenizers.decoders

    ref, ours = pair(name)
    ids = ref.encode(" ".join(texts()[:6]))
    ids = ids[:40] + [len(ref) + 7] + ids[40:80] + [2**31 - 1, len(ref)] + ids[80:120]
    for skip in (False, True):
        expected = _stream(ref, ref._tokenizer, ids, skip)
        assert _stream(ours, ours._tokenizer, ids, skip) == expected
    with_prompt = tokenizers.decoders.DecodeStream(ids[:10], skip_special_tokens=False)
    hf_stream = tokenizers.decoders.DecodeStream(ids[:10], skip_special_tokens=False)
    for i in ids[10:60]:
        assert with_prompt.step(ours._tokenizer, i) == hf_stream.step(ref._tokenizer, i)


@pytest.mark.parametrize("name", ("gpt2", "qwen3"))
def test_settings_changed_while_threads_encode(name):
    """One copy per thread (as vLLM does) with its own settings, and one
    shared tokenizer called with and without truncation at once: every
    result is the one its settings give."""
    ref, ours = pair(name)
    lines = list(texts())
    settings = [{}, {"truncation": True, "max_length": 8}, {"padding": "max_length", "max_length": 40,
                                                            "truncation": True},
                {"return_offsets_mapping": True}]
    expected = [ref(lines, **kw) for kw in settings]
    errors = []

    def work(tok, k, rounds=15):
        try:
            for _ in range(rounds):
                same_batch(expected[k], tok(lines, **settings[k]))
        except Exception as e:  # reported below, with the thread's settings
            errors.append((settings[k], e))

    threads = [threading.Thread(target=work, args=(copy.deepcopy(ours), k)) for k in range(len(settings))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    # Shared: transformers sets the backend's settings on each call, so
    # a call may see another's settings (HF does the same); never a crash
    # or a mixed result.
    shared_ok = {tuple(map(tuple, e["input_ids"])) for e in expected[:2]}
    seen = []

    def shared(k):
        for _ in range(15):
            seen.append(tuple(map(tuple, ours(lines, **settings[k])["input_ids"])))

    threads = [threading.Thread(target=shared, args=(k % 2,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(seen) <= shared_ok
