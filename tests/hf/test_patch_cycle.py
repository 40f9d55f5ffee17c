"""patch_transformers itself: idempotent, undone by unpatch, applied to
direct constructions, falling back with a warning; chat templates and
training through a patched tokenizer."""

import json
import warnings

import pytest
from corpus import CORPUS
from transformers_pairs import folder, load_plain, pair, same_batch, texts, unpatched


def test_patch_is_idempotent_and_unpatch_restores():
    import tokenizers.decoders
    from transformers import AutoTokenizer
    from transformers.tokenization_utils_tokenizers import TokenizersBackend

    import mtok
    import mtok.hf

    with unpatched():
        originals = (TokenizersBackend.__init__, TokenizersBackend._encode_plus,
                     tokenizers.decoders.DecodeStream)
        own = set(TokenizersBackend.__dict__)
        mtok.patch_transformers()
        patched = (TokenizersBackend.__init__, TokenizersBackend._encode_plus,
                   tokenizers.decoders.DecodeStream)
        mtok.patch_transformers()  # again: nothing changes
        assert (TokenizersBackend.__init__, TokenizersBackend._encode_plus,
                tokenizers.decoders.DecodeStream) == patched
        assert all(p is not o for p, o in zip(patched, originals))
        mtok.unpatch_transformers()
        mtok.unpatch_transformers()
        assert (TokenizersBackend.__init__, TokenizersBackend._encode_plus,
                tokenizers.decoders.DecodeStream) == originals
        assert set(TokenizersBackend.__dict__) == own
        plain = AutoTokenizer.from_pretrained(folder("gpt2"))
        assert not isinstance(plain._tokenizer, mtok.hf.TransformersBackend)


def test_direct_construction_runs_on_mtok():
    import tokenizers
    from transformers import PreTrainedTokenizerFast

    import mtok.hf

    path = folder("gpt2") + "/tokenizer.json"
    for tok in (PreTrainedTokenizerFast(tokenizer_file=path),
                PreTrainedTokenizerFast(tokenizer_object=tokenizers.Tokenizer.from_file(path))):
        assert isinstance(tok._tokenizer, mtok.hf.TransformersBackend)
        ref = tokenizers.Tokenizer.from_file(path)
        ref.no_truncation()
        for line in texts():
            assert tok.encode(line) == ref.encode(line).ids


def _unsupported_tokenizer():
    """gpt2 with a pre-tokenizer mtok does not implement (UnicodeScripts)."""
    import tokenizers

    data = json.loads(open(folder("gpt2") + "/tokenizer.json", encoding="utf-8").read())
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "UnicodeScripts"}, data["pre_tokenizer"]]}
    data["truncation"] = None
    return tokenizers.Tokenizer.from_str(json.dumps(data))


def test_unreproducible_tokenizer_stays_on_hf_with_one_warning():
    from transformers import PreTrainedTokenizerFast

    import mtok.hf

    hf = _unsupported_tokenizer()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tok = PreTrainedTokenizerFast(tokenizer_object=hf)
    messages = [str(w.message) for w in caught if issubclass(w.category, mtok.hf.FallbackWarning)]
    assert len(messages) == 1 and "UnicodeScripts" in messages[0], messages
    assert not isinstance(tok._tokenizer, mtok.hf.TransformersBackend)
    assert tok(list(texts()))["input_ids"] == [e.ids for e in hf.encode_batch(list(texts()))]


def test_component_mtok_cannot_compile_moves_the_backend_to_hf():
    import tokenizers
    from transformers import PreTrainedTokenizerFast

    import mtok.hf

    tok = PreTrainedTokenizerFast(tokenizer_file=folder("gpt2") + "/tokenizer.json")
    backend = tok._tokenizer
    assert isinstance(backend, mtok.hf.TransformersBackend)
    hf = _unsupported_tokenizer()
    with pytest.warns(mtok.hf.FallbackWarning, match="pre_tokenizer"):
        backend.pre_tokenizer = hf.pre_tokenizer
    assert backend._hf is not None
    lines = list(texts())
    assert tok(lines)["input_ids"] == [e.ids for e in hf.encode_batch(lines)]
    assert tok.decode(tok.encode(lines[0])) == hf.decode(hf.encode(lines[0]).ids)


def test_component_views_and_setters():
    import tokenizers.processors
    from transformers import PreTrainedTokenizerFast

    tok = PreTrainedTokenizerFast(tokenizer_file=folder("gpt2") + "/tokenizer.json")
    ref = load_plain(folder("gpt2"))
    backend, hf = tok._tokenizer, ref._tokenizer
    assert type(backend.model).__name__ == type(hf.model).__name__ == "BPE"
    assert backend.pre_tokenizer.pre_tokenize_str("Hello there") == hf.pre_tokenizer.pre_tokenize_str(
        "Hello there")
    assert backend.decoder.decode(["Hello", "Ġwor", "ld", "\u00ff"]) == hf.decoder.decode(
        ["Hello", "Ġwor", "ld", "\u00ff"])
    assert [t.id for t in backend.model.tokenize("Hello")] == [t.id for t in hf.model.tokenize("Hello")]
    template = tokenizers.processors.TemplateProcessing(
        single="<|endoftext|> $A <|endoftext|>", pair="$A <|endoftext|> $B:1",
        special_tokens=[("<|endoftext|>", 50256)])
    backend.post_processor = template
    hf.post_processor = template
    lines = list(texts()[:8])
    same_batch(ref(lines, return_special_tokens_mask=True), tok(lines, return_special_tokens_mask=True))
    same_batch(ref(lines, lines, return_token_type_ids=True), tok(lines, lines, return_token_type_ids=True))


TEMPLATES = CORPUS / "chat_templates"
CONVERSATION = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "Bonjour ! Combien font 2 + 2 ?"},
    {"role": "assistant", "content": "4. 日本語でも答えます。"},
    {"role": "user", "content": "Merci 👍"},
]


@pytest.mark.parametrize("name", ("qwen3", "llama3", "gemma3", "gpt2"))
def test_apply_chat_template(name):
    ref, ours = pair(name)
    template = None
    if ref.chat_template is None:
        path = TEMPLATES / "from_tokenizer_config" / "qwen3.jinja"
        if not path.exists():
            pytest.skip(f"corpus chat template not found: {path}")
        template = path.read_text(encoding="utf-8")
    for gen in (False, True):
        kw = {"add_generation_prompt": gen, "chat_template": template}
        assert ours.apply_chat_template(CONVERSATION, tokenize=False, **kw) == ref.apply_chat_template(
            CONVERSATION, tokenize=False, **kw)
        assert ours.apply_chat_template(CONVERSATION, **kw) == ref.apply_chat_template(CONVERSATION, **kw)
        same_batch(ref.apply_chat_template(CONVERSATION, return_dict=True, **kw),
                   ours.apply_chat_template(CONVERSATION, return_dict=True, **kw))


@pytest.mark.parametrize("template", ("LFM2.5-8B-A1B.jinja", "poolside-Laguna-XS.2.jinja"))
def test_assistant_tokens_mask(template):
    """return_assistant_tokens_mask (templates with generation blocks) maps
    characters to tokens through the BatchEncoding's Encodings."""
    path = TEMPLATES / "llama.cpp" / template
    if not path.exists():
        pytest.skip(f"corpus chat template not found: {path}")
    ref, ours = pair("qwen3")
    source = path.read_text(encoding="utf-8")
    kw = {"chat_template": source, "return_dict": True, "return_assistant_tokens_mask": True}
    same_batch(ref.apply_chat_template(CONVERSATION, **kw), ours.apply_chat_template(CONVERSATION, **kw))
    assert any(ours.apply_chat_template(CONVERSATION, **kw)["assistant_masks"])


def test_train_new_from_iterator():
    """Training is HF tokenizers' (mtok has no trainer); the trained
    tokenizer runs on mtok with the same ids."""
    import mtok.hf

    ref, ours = pair("gpt2")
    corpus = [list(texts())] * 3
    a = ref.train_new_from_iterator(corpus, vocab_size=400)
    b = ours.train_new_from_iterator(corpus, vocab_size=400)
    assert isinstance(b._tokenizer, mtok.hf.TransformersBackend)
    assert b.get_vocab() == a.get_vocab()
    lines = list(texts())
    assert b(lines)["input_ids"] == a(lines)["input_ids"]
