"""HF tokenizers' Tokenizer surface on mtok.Tokenizer, against HF
tokenizers on the corpus tokenizer.json files."""

import json

import pytest
from corpus import file_path, hf_pair, parity_strings

import mtok
from mtok.hf import AddedToken

NAMES = ("bert-base-uncased", "gpt2", "t5-small", "mistral-7b-v0.1", "qwen3")
TEXTS = parity_strings()[::997][:40] if parity_strings() else ()


@pytest.fixture(scope="module", params=NAMES)
def pair(request):
    return hf_pair(request.param)


def test_vocab_and_added_tokens(pair):
    ref, ours = pair
    assert ours.get_vocab() == ref.get_vocab()
    assert ours.get_vocab(with_added_tokens=False) == ref.get_vocab(with_added_tokens=False)
    assert ours.get_vocab_size() == ref.get_vocab_size()
    assert ours.get_vocab_size(with_added_tokens=False) == ref.get_vocab_size(with_added_tokens=False)
    assert {i: repr(t) for i, t in ours.get_added_tokens_decoder().items()} == {
        i: repr(t) for i, t in ref.get_added_tokens_decoder().items()}
    for pair_ in (False, True):
        assert ours.num_special_tokens_to_add(pair_) == ref.num_special_tokens_to_add(pair_)


def test_to_str_loads_in_hf_to_the_same_ids(pair):
    import tokenizers

    ref, ours = pair
    ours.enable_truncation(20, stride=2)
    ours.enable_padding(length=24, pad_id=0, pad_token="<x>")
    try:
        written = ours.to_str(pretty=True)
        assert json.loads(written) == json.loads(ours.to_str())
        reloaded = tokenizers.Tokenizer.from_str(written)
        assert reloaded.truncation == ours.truncation and reloaded.padding == ours.padding
        for text in TEXTS:
            assert reloaded.encode(text).ids == ours.encode(text)
        again = mtok.Tokenizer.from_str(written)
        same = mtok.Tokenizer.from_buffer(written.encode())
        for text in TEXTS:
            assert again.encode(text) == same.encode(text) == ours.encode(text)
    finally:
        ours.no_truncation()
        ours.no_padding()


def test_add_tokens_as_hf(pair):
    import tokenizers

    ref, ours = (tokenizers.Tokenizer.from_str(pair[0].to_str()), mtok.Tokenizer.from_str(pair[0].to_str()))
    for t in (ref, ours):
        t.no_truncation()
        t.no_padding()
    batches = [
        ["hello", "<new-1>", "<new-1>"],
        [tokenizers.AddedToken("stripped", lstrip=True, rstrip=True), tokenizers.AddedToken("word", single_word=True)],
        [tokenizers.AddedToken("stripped", lstrip=True, rstrip=True)],  # same again: ignored
        [tokenizers.AddedToken("stripped", lstrip=False)],  # new flags: replaces
        [tokenizers.AddedToken("schoolbus", normalized=True)],
        ["ÉCOLE"],  # normalized: id_to_token gives it normalized (bert: "ecole"), as HF
    ]
    for tokens in batches:
        assert ours.add_tokens(tokens) == ref.add_tokens(tokens)
    mine = [AddedToken("<own>", lstrip=True), "<plain-special>"]
    assert ours.add_special_tokens(mine) == ref.add_special_tokens(
        [tokenizers.AddedToken("<own>", lstrip=True), "<plain-special>"])
    assert {i: repr(t) for i, t in ours.get_added_tokens_decoder().items()} == {
        i: repr(t) for i, t in ref.get_added_tokens_decoder().items()}
    assert len(ours) == ref.get_vocab_size()
    lines = [f"{t} hello<new-1>  stripped  word xword schoolbus école <own> <plain-special>x" for t in TEXTS[:10]]
    for line in lines:
        assert ours.encode(line) == ref.encode(line).ids
        ids = ref.encode(line).ids
        assert ours.decode(ids, skip_special_tokens=True) == ref.decode(ids, skip_special_tokens=True)
    ours.encode_special_tokens = ref.encode_special_tokens = True
    assert ours.encode_special_tokens
    for line in lines:
        assert ours.encode(line) == ref.encode(line).ids
    assert [e.ids for e in ref.encode_batch(lines)] == ours.encode_batch(lines)
    # The tokens survive serialization.
    reloaded = tokenizers.Tokenizer.from_str(ours.to_str())
    reloaded.encode_special_tokens = False
    ours.encode_special_tokens = False
    assert [reloaded.encode(t).ids for t in lines] == [ours.encode(t) for t in lines]


def test_add_tokens_needs_a_spec(tmp_path):
    ref, ours = hf_pair("gpt2")
    path = tmp_path / "gpt2.mtok"
    ours.save(path)
    loaded = mtok.Tokenizer.from_file(path)
    with pytest.raises(mtok.MtokError, match="from_file"):
        loaded.add_tokens(["x"])
    assert loaded.get_vocab() == ref.get_vocab()
    with pytest.raises(TypeError):
        ours.add_tokens("not a list")


def test_post_process_as_hf(pair):
    ref, ours = pair
    for text, second in zip(TEXTS[:10], TEXTS[10:20]):
        a = ref.post_process(ref.encode(text, add_special_tokens=False))
        b = ours.post_process(ours.encode(text, add_special_tokens=False, return_encoding=True))
        assert (b.ids, b.type_ids, b.special_tokens_mask) == (a.ids, a.type_ids, a.special_tokens_mask)
        a = ref.post_process(ref.encode(text, add_special_tokens=False),
                             ref.encode(second, add_special_tokens=False))
        b = ours.post_process(ours.encode(text, add_special_tokens=False, return_encoding=True),
                              ours.encode(second, add_special_tokens=False, return_encoding=True))
        assert (b.ids, b.type_ids) == (a.ids, a.type_ids)


@pytest.mark.parametrize("name", NAMES)
def test_component_views(name):
    """The views hold the source tokenizer.json's fields."""
    ref, ours = hf_pair(name)
    from mtok.convert.serde_float import serde_f64

    data = json.loads(file_path("tokenizers", name, "tokenizer.json").read_text(encoding="utf-8"),
                      parse_float=serde_f64)
    for key in ("normalizer", "pre_tokenizer", "post_processor", "model", "decoder"):
        view = getattr(ours, key)
        if data[key] is None:
            assert view is None
            continue
        assert view.type == data[key].get("type", view.type)
        fields = json.loads(view.__getstate__())
        assert fields == {**data[key], **({"type": fields["type"]} if key == "model" else {})}
        with pytest.raises(AttributeError):
            view.type = "x"
    assert type(ours.model).__name__ == type(ref.model).__name__
    tokens = [ref.id_to_token(i) for i in ref.encode(" ".join(TEXTS[:5])).ids]
    if ref.decoder is not None:
        assert ours.decoder.decode(tokens) == ref.decoder.decode(tokens)


def test_from_str_rejects_bad_input():
    with pytest.raises(mtok.MtokError, match="invalid JSON"):
        mtok.Tokenizer.from_str("{not json")
    with pytest.raises(mtok.MtokError):
        mtok.Tokenizer.from_str("{}")
    with pytest.raises(mtok.MtokError, match="UTF-8"):
        mtok.Tokenizer.from_buffer(b"\xff\xfe")
    with pytest.raises(TypeError):
        mtok.Tokenizer.from_str(b"{}")


def test_pickle_keeps_added_tokens_and_settings():
    import pickle

    _, ours = hf_pair("gpt2")
    ours.add_tokens(["<pickled>"])
    ours.encode_special_tokens = True
    clone = pickle.loads(pickle.dumps(ours))
    text = "a<pickled> <|endoftext|>"
    assert clone.encode(text) == ours.encode(text) and clone.encode_special_tokens
    assert clone.add_tokens(["<after>"]) == 1 and clone.token_to_id("<after>") == len(ours)


def test_added_token_is_an_immutable_value():
    import copy
    import pickle

    a = AddedToken("<x>", special=True)
    b = AddedToken("<x>", False, False, False, False, True)  # `normalized` unset reads `not special`
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != AddedToken("<x>") and a != "<x>"
    assert a.normalized is False and AddedToken("<y>").normalized is True
    assert pickle.loads(pickle.dumps(a)) == a == copy.deepcopy(a)
    for name in ("content", "special", "other"):
        with pytest.raises(AttributeError):
            setattr(a, name, 1)
    with pytest.raises(AttributeError):
        del a.content
    with pytest.raises(TypeError):
        AddedToken(b"<x>")
    assert str(a) == "<x>" and repr(a).startswith('AddedToken("<x>"')
