"""The pipeline components of the SentencePiece/WordPiece/Unigram families
against HF tokenizers, one component at a time.

Each component runs inside a small tokenizer.json whose model is a
WordPiece over single characters: a word spells as its first character then
"##" + each next one, so the ids show the normalized text and every
pre-token boundary exactly."""

import json
import random

import pytest

import mtok
from mtok.convert.export import export_mtok

tokenizers = pytest.importorskip("tokenizers")

SAMPLES = [
    "Hello, world! It's  a test:\tdon't stop... ¿Qué tal? (x+y)=z",
    "  leading and trailing  ", "a\u3000b\u00a0c\u2003d\ne\r\nf", "日本語のテキスト、句読点。「引用」",
    "e\u0301te\u0301 Cafe\u0301 n\u0303 A\u030a", "▁already▁has▁marks ▁ x", "tab\there|pipe|",
    "multi\u2581\u2581space", "emoji 👩‍👩‍👧 🇯🇵 ☺\ufe0f #\ufe0f\u20e3", "کتاب‌ها", "नमस्ते क्षत्रिय",
    "", " ", "¡¡¡!!!", "x\u0600\u0661y", "\u00ad\u200b\u200dz", "ＡＢＣ１２３", "ｶﾞｷﾞ",
]


def char_vocab(texts):
    chars = sorted({c for t in texts for c in t} | set("[UNK]"))
    vocab = {"[UNK]": 0}
    for c in chars:
        for tok in (c, "##" + c):
            vocab.setdefault(tok, len(vocab))
    return vocab


def pair_for(normalizer=None, pre_tokenizer=None, decoder=None, texts=SAMPLES):
    data = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": [],
        "normalizer": normalizer, "pre_tokenizer": pre_tokenizer, "post_processor": None,
        "decoder": decoder,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 10000, "vocab": char_vocab(texts)},
    }
    ref = tokenizers.Tokenizer.from_str(json.dumps(data))
    return ref, mtok.Tokenizer.from_bytes(export_mtok(data))


def assert_same_ids(ref, ours, texts):
    for t in texts:
        assert ours.encode(t) == ref.encode(t).ids, repr(t)


PRE_TOKENIZERS = [
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first", "split": True},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": True},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": False},
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},  # old files
    {"type": "Metaspace", "replacement": "|", "prepend_scheme": "first", "split": True},
    {"type": "WhitespaceSplit"},
    {"type": "Whitespace"},
    {"type": "BertPreTokenizer"},
    {"type": "CharDelimiterSplit", "delimiter": "|"},
    {"type": "Sequence", "pretokenizers": [{"type": "WhitespaceSplit"},
                                           {"type": "Metaspace", "replacement": "▁",
                                            "prepend_scheme": "first", "split": True}]},
] + [{"type": "Punctuation", "behavior": b}
     for b in ["Isolated", "Removed", "MergedWithPrevious", "MergedWithNext", "Contiguous"]]


@pytest.mark.parametrize("spec", PRE_TOKENIZERS, ids=lambda s: json.dumps(s, ensure_ascii=False))
def test_pre_tokenizer(spec):
    ref, ours = pair_for(pre_tokenizer=spec)
    assert_same_ids(ref, ours, SAMPLES)


def test_metaspace_first_after_added_token():
    """"first" prepends only to the segment at the start of the input."""
    data = json.loads(pair_for()[0].to_str())
    data["pre_tokenizer"] = {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first"}
    vocab = data["model"]["vocab"]
    data["added_tokens"] = [{"id": len(vocab), "content": "<s>", "single_word": False, "lstrip": False,
                             "rstrip": False, "normalized": False, "special": True}]
    ref = tokenizers.Tokenizer.from_str(json.dumps(data))
    ours = mtok.Tokenizer.from_bytes(export_mtok(data))
    assert_same_ids(ref, ours, ["<s>a b", "a<s>b c", "a b<s>", "<s> x"])


def every_code_point_texts(base="x"):
    """Every scalar value after a base letter, as short space-separated words."""
    cps = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    return ["".join(base + chr(c) + " " for c in cps[i:i + 1024]) for i in range(0, len(cps), 1024)]


def assert_normalizer_matches(spec, texts):
    """Words are split on White_Space after normalizing, so each stays short."""
    ref, _ = pair_for(normalizer=spec, texts=["x"])
    normalized = [ref.normalizer.normalize_str(t) for t in texts]
    ref, ours = pair_for(normalizer=spec, pre_tokenizer={"type": "WhitespaceSplit"},
                         texts=normalized + texts)
    expected = [e.ids for e in ref.encode_batch(texts)]
    for t, e in zip(texts, expected):
        assert ours.encode(t) == e, repr(t[:8])


@pytest.mark.parametrize("spec", [
    {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
     "strip_accents": None, "lowercase": True},
    {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": False,
     "strip_accents": True, "lowercase": False},
    {"type": "Sequence", "normalizers": [{"type": "NFD"}, {"type": "StripAccents"}]},
    {"type": "StripAccents"},
], ids=["bert-uncased", "bert-strip", "nfd-strip", "strip"])
def test_normalizer_every_code_point(spec):
    assert_normalizer_matches(spec, every_code_point_texts())


@pytest.mark.parametrize("form", ["NFC", "NFKC"])
def test_unicode_form_every_code_point(form):
    assert_normalizer_matches({"type": form}, every_code_point_texts())
    assert_normalizer_matches({"type": form}, ["plain ascii words", "Café ÀÉÎ ¿¡ «»", "x \u2019\u201c ok\u201d",
                                               "e\u0301 \u1100\u1161 \u0b47\u0b3e \u1b05\u1b35 👍🏽"])


def test_nfc_reorders_marks_with_and_without_offsets():
    # Arabic marks out of canonical order (shadda, class 33, before fatha,
    # 30) and a decomposed letter, inside longer text: the ids path rewrites
    # the text alone, the offsets path keeps alignments; both as HF.
    texts = ["\u0645\u0651\u064e\u0631\u0651\u064e " * 40 + "e\u0301t\u00e9 \u0915\u093e",
             "plain \u0628\u0650\u0633\u0652\u0645\u0650 words \u0627\u0644\u0644\u0651\u064e\u0647\u0650"]
    ref, ours = pair_for(normalizer={"type": "NFC"}, pre_tokenizer={"type": "WhitespaceSplit"}, texts=texts)
    for t in texts:
        expected = ref.encode(t)
        assert ours.encode(t) == expected.ids
        got = ours.encode(t, return_encoding=True)
        assert got.ids == expected.ids and list(got.offsets) == list(expected.offsets)


def test_nfc_shortcut_premise():
    """unicode_form.cc skips NFC for text whose code points are all "safe"
    (combining class 0, NFC_Quick_Check Yes; U+0080..U+02FF without a
    lookup). Such text is its own NFC if each safe code point is its own
    NFC and no canonical pair that NFC composes ends in a safe one: then
    nothing reorders, decomposes or composes. Checked over every code
    point against HF's NFC."""
    import unicodedata

    from hooks_module import hooks

    testing = hooks()

    normalizers = pytest.importorskip("tokenizers.normalizers")
    nfc = normalizers.NFC()
    assert all(testing.is_nfc_safe(cp) for cp in range(0x80, 0x300))
    unsafe_seconds = set()
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        if testing.is_nfc_safe(cp):
            assert testing.combining_class(cp) == 0 and nfc.normalize_str(chr(cp)) == chr(cp), hex(cp)
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<") and len(d.split()) == 2:
            first, second = (chr(int(x, 16)) for x in d.split())
            if nfc.normalize_str(first + second) != first + second:  # NFC composes the pair
                unsafe_seconds.add(ord(second))
    assert not any(testing.is_nfc_safe(cp) for cp in unsafe_seconds)
    # Hangul: LV syllables compose with a trailing jamo, which must be unsafe.
    assert not any(testing.is_nfc_safe(cp) for cp in range(0x11A8, 0x11C3))


def precompiled_spec():
    import corpus

    path = corpus.file_path("tokenizers", "t5-small", "tokenizer.json")
    return json.loads(path.read_text())["normalizer"]


PRECOMPILED_TEXTS = SAMPLES + [
    "a\r\nb", "\r\n\r\n", "e\u0301\u0302x", "Ａ\u0301", "\u00a0\u0301", "\u00a8\u0301", "ﬁ\u0301",
    "\u1100\u1161\u11a8", "👍🏽", "\u0915\u094d\u0937", "x\u200d\u200d", "\u2474\u0301", "\u3300",
]


def test_precompiled_graphemes():
    """HF's grapheme walk: a cluster under 6 bytes is replaced by the rule of
    its shortest matching prefix."""
    spec = precompiled_spec()
    ref, _ = pair_for(normalizer=spec, texts=["x"])
    normalized = [ref.normalizer.normalize_str(t) for t in PRECOMPILED_TEXTS]
    ref, ours = pair_for(normalizer=spec, texts=normalized + PRECOMPILED_TEXTS)
    assert_same_ids(ref, ours, PRECOMPILED_TEXTS)


def test_precompiled_every_code_point_after_letters():
    """Each code point after a base letter (grapheme clusters)."""
    assert_normalizer_matches(precompiled_spec(), every_code_point_texts("a"))


FUSED_TEXTS = PRECOMPILED_TEXTS + [
    "a  b   c    d", "   ", " x", "x ", "\t\tx\n\ny", " \u0301a", "a \u0301 b", "\u0301", "x\u3000\u3000y",
    "▁", "▁▁ ▁", " ▁x", "x▁ y", "a\x00b", "\x00", "a \r\n b", "\u2581\u0301", "end with space  ",
]


@pytest.mark.parametrize("replace", [False, True], ids=["precompiled", "precompiled+collapse"])
@pytest.mark.parametrize("pre", [p for p in PRE_TOKENIZERS if "Metaspace" in json.dumps(p)],
                         ids=lambda s: json.dumps(s, ensure_ascii=False))
def test_precompiled_fused_with_metaspace(pre, replace):
    """The ids route that runs Precompiled (and XLM-R's " {2,}" collapse)
    in the same pass as Metaspace gives HF's ids, and is the route in use."""
    spec = precompiled_spec()
    if replace:
        spec = {"type": "Sequence", "normalizers": [
            spec, {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]}
    texts = FUSED_TEXTS + every_code_point_texts(" ")[:12] + every_code_point_texts("a")[:4]
    if pre.get("split") is False:  # one word per text: HF's WordPiece is cubic in its length
        texts = [t[:300] for t in texts]
    ref, _ = pair_for(normalizer=spec, texts=["x"])
    normalized = [ref.normalizer.normalize_str(t) for t in texts]
    ref, ours = pair_for(normalizer=spec, pre_tokenizer=pre, texts=normalized + texts + ["▁|"])
    assert "fused" in ours.debug_info()["ids_route"]
    expected = [e.ids for e in ref.encode_batch(texts)]
    for t, e in zip(texts, expected):
        assert ours.encode(t) == e, repr(t[:40])


def test_hostile_charsmap_never_crashes():
    rng = random.Random(7)
    good = __import__("base64").b64decode(precompiled_spec()["precompiled_charsmap"])
    for _ in range(200):
        blob = bytearray(good[:rng.randrange(4, 4096)])
        for _ in range(rng.randrange(1, 64)):
            blob[rng.randrange(len(blob))] = rng.randrange(256)
        spec = {"type": "Precompiled",
                "precompiled_charsmap": __import__("base64").b64encode(bytes(blob)).decode()}
        data = {"normalizer": spec, "model": {"type": "WordPiece", "unk_token": "[UNK]",
                                              "vocab": {"[UNK]": 0}}}
        try:
            tok = mtok.Tokenizer.from_bytes(export_mtok(data))
        except mtok.MtokError:
            continue
        for t in PRECOMPILED_TEXTS:
            tok.encode(t)


DECODERS = [
    {"type": "WordPiece", "prefix": "##", "cleanup": True},
    {"type": "WordPiece", "prefix": "##", "cleanup": False},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "never", "split": True},
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
    {"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": True},
    {"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|", "cleanup": False},
    {"type": "BPEDecoder", "suffix": "</w>"},
]
DECODER_TOKENS = ["a", "##b", "▁c", "▁", "<pad>", "|", "d</w>", "</w>", " .", "'", "n't", " 's",
                  "do", " do not", "x▁y", "?", " ,", "##", "e"]


@pytest.mark.parametrize("spec", DECODERS, ids=lambda s: json.dumps(s, ensure_ascii=False))
def test_decoder(spec):
    vocab = {"[UNK]": 0}
    for t in DECODER_TOKENS:
        vocab.setdefault(t, len(vocab))
    data = {"version": "1.0", "added_tokens": [], "normalizer": None, "pre_tokenizer": None,
            "post_processor": None, "decoder": spec,
            "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                      "max_input_chars_per_word": 100, "vocab": vocab}}
    ref = tokenizers.Tokenizer.from_str(json.dumps(data))
    ours = mtok.Tokenizer.from_bytes(export_mtok(data))
    rng = random.Random(3)
    for _ in range(500):
        ids = [rng.randrange(len(vocab)) for _ in range(rng.randrange(0, 8))]
        ids += ids[:rng.randrange(0, 3)]  # repeats (CTC)
        assert ours.decode(ids) == ref.decode(ids), [ref.id_to_token(i) for i in ids]


@pytest.mark.parametrize("kind", ["BertProcessing", "RobertaProcessing"])
def test_bert_roberta_templates(kind):
    """The templates the writer builds give HF's ids and type ids."""
    from mtok.format.post import template_of

    spec = {"type": kind, "sep": ["[SEP]", 5], "cls": ["[CLS]", 4]}
    proc = getattr(tokenizers.processors, kind)(("[SEP]", 5), ("[CLS]", 4))
    ref = tokenizers.Tokenizer(tokenizers.models.WordLevel({"a": 0, "b": 1}, unk_token="a"))
    ref.post_processor = proc
    single, pair = template_of(spec)

    def expand(items):
        ids, types = [], []
        for kind_, tids, type_id in items:
            got = tids if kind_ == "special" else [0 if kind_ == "A" else 1]
            ids += got
            types += [type_id] * len(got)
        return ids, types

    e = ref.encode("a")
    assert expand(single) == (e.ids, e.type_ids)
    e = ref.encode("a", "b")
    assert expand(pair) == (e.ids, e.type_ids)


@pytest.mark.parametrize("pattern,content", [(" {2,}", " "), ("a{3,}", "A"), ("0{1,}", ""), (" {2,}", "__")])
def test_regex_replace_of_a_repeated_character(pattern, content):
    """`X{n,}` patterns run without the regex engine (RunReplace): same ids
    and offsets as HF's regex."""
    spec = {"type": "Replace", "pattern": {"Regex": pattern}, "content": content}
    texts = SAMPLES + ["a  b   c    d", "  lead", "trail  ", "aaaa aa aaa a", "x000y0z", "  ", " a ",
                       "\u00e9  \u00e9   e\u0301  "]
    ref, ours = pair_for(normalizer=spec, pre_tokenizer={"type": "WhitespaceSplit"}, texts=texts + [content])
    for t in texts:
        e, o = ref.encode(t), ours.encode(t, return_encoding=True)
        assert (o.ids, o.offsets) == (e.ids, e.offsets), repr(t)
