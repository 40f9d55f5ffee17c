"""The WordPiece ids route (cpp/src/fast_paths/wordpiece_route.h) against HF
tokenizers: bert-base-uncased and variants of its BertNormalizer options,
on the corpus strings and on edge cases (control characters, U+FFFD, lone
and stacked combining marks, CJK, words over max_input_chars_per_word),
each encoded twice (a word-cache miss, then a hit), with and without
special tokens, through encode and encode_batch on 1 and 2 threads; and
the route against mtok's general pipeline (return_encoding=True) on every
code point."""

import json
import random
import struct
import unicodedata

import pytest

import corpus
from harness import assert_same

tokenizers = pytest.importorskip("tokenizers")

BASE = "bert-base-uncased"


def load_json(path):
    return json.loads(path.read_text(encoding="utf-8"))


def pair_from(spec, tmp_path, name):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    return corpus.hf_pair_at(path)


def edge_strings():
    """Hand-made inputs around the route's branches."""
    rng = random.Random(24)
    marks = [chr(c) for c in range(0x300, 0x370)] + ["\u0345", "\u0f39", "\u1d165", "\u1d16d", "\u302a"]
    out = [
        "", " ", "a", "A", "\t\n\r \x0b\x0c", "a\x00b", "a\x01b\x7fc", "x\ufffdy", "\ufffd",
        "a\u0085b", "a\u00a0b\u3000c\u2028d", "a\u200bb\u200dc\ufeffd", "\u00ad", "e\u0301", "\u0301",
        "\u0301\u0301a", "İstanbul", "ÅNGSTRÖM", "ﬁ ﬀ", "ß ẞ", "Σίσυφος ΣΑΣ", "ǅ ǈ ǋ",
        "中文字符，日本語の文章。한국어 문장", "\uf900\ufa6a\U0002f800", "\U00020000\U0002a6df",
        "ｆｕｌｌｗｉｄｔｈ　ＡＢＣ！", "🤾🏿\u200d♂️ 👩‍👩‍👧‍👦", "\U000e0001\U000e0041", "\uE000\U000F0000",
        "a" * 100, "a" * 101, "é" * 100, "é" * 101, "x" * 5000, "##", "##a", "a##b", "[UNK]", "[CLS] x [SEP]",
        "don't stop-me now...", "$1,000.50 + 3%", "¿¡«»‹›„“”‚‘’", "a\u037eb\u0387c\u1fefd\u1fede",
        "\u0130\u0131 \u1e9e \u2126 \u212a \u212b", "Tiếng Việt có dấu", "Ελληνικά τονισμένα ά έ ή",
    ]
    # Stacked marks of different classes on letters (NFD reorders them).
    for _ in range(300):
        k = rng.randint(1, 4)
        out.append("".join(rng.choice("aeioAEIOuy") + "".join(rng.choice(marks) for _ in range(k))
                           for _ in range(rng.randint(1, 5))))
    # Long words of every script, past max_input_chars_per_word and around it.
    for n in (99, 100, 101, 250):
        out += [ch * n for ch in "aЖあ한é"]
    return out


def check_all_ways(name, ref, ours, texts, specials=(False, True)):
    for special in specials:
        expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=special)]
        for attempt in ("miss", "hit"):
            actual = [ours.encode(t, add_special_tokens=special) for t in texts]
            assert_same(f"{name} encode special={special} ({attempt})", texts, expected, actual)
        for threads in (1, 2):
            actual = ours.encode_batch(texts, add_special_tokens=special, num_threads=threads)
            assert_same(f"{name} encode_batch special={special} threads={threads}", texts, expected, actual)


@pytest.fixture(scope="module")
def bert():
    return corpus.hf_pair(BASE)


def test_route_is_chosen(bert):
    _, ours = bert
    assert ours.debug_info()["ids_route"].startswith("BertNormalizer and BertPreTokenizer fused")


def corpus_lines_and_paragraphs():
    out = []
    for _, text in corpus.text_files():
        out += [line for line in text.splitlines() if line.strip()]
        out += [p for p in text.split("\n\n") if p.strip()]
    return out


def test_corpus(bert):
    """Every line and paragraph of the corpus. (tests/parity/test_hf_tokenizers.py
    compares them with special tokens, and the 4096-character chunks.)"""
    ref, ours = bert
    check_all_ways(BASE, ref, ours, corpus_lines_and_paragraphs(), specials=(False,))


def test_edges(bert):
    ref, ours = bert
    check_all_ways(BASE, ref, ours, edge_strings())


def letter_runs():
    """Words of two- and three-byte letters (the route copies a word's
    letters after its first in one loop, up to the end of each 32-byte
    chunk of input), shifted by 0-40 ASCII bytes so their letters fall on
    every side of a chunk's end, with what ends a run inside them: a
    dropped mark, punctuation, CJK, a ligature, a four-byte letter, an
    accented capital, a space."""
    rng = random.Random(7)
    letters = "жЖщЩяΣσάέήابتשׁあいアイ가각éÉñÑçœŒ"
    breakers = ["\u0301", ",", "中", "ﬁ", "\U00020000", "Å", " ", "ǅ", "\u3000", "-"]
    out = []
    for shift in range(41):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(10, 60)))
        cut = rng.randint(0, len(word))
        out.append("a" * shift + " " + word)
        out.append("b" * shift + word + rng.choice(breakers) + word[::-1])
        out.append("c" * shift + word[:cut] + rng.choice(breakers) + word[cut:] + " " + word)
    return out


def test_letter_runs_across_chunks(bert):
    ref, ours = bert
    check_all_ways(BASE, ref, ours, letter_runs())


def ascii_block_texts():
    """ASCII text that the route classifies 16 bytes at a time, shifted by
    0-40 bytes so that every word start and end, punctuation byte and run
    of them falls at every place in a block: at its first and last byte, a
    word left open by the block before and closed by punctuation or white
    space at the next one's first byte, words longer than a block; and
    the same with a byte a block stops at somewhere in it."""
    rng = random.Random(16)
    parts = ["word", "w", "A", "x1", "ab,cd", "!!", "?", "(z)", "a.b.c", "12:34", "don't", "end.", "-", "[x]",
             "Mixed-Case_Words", "q" * 17, "Z" * 33, "..", "1/2", "e-mail@host.org"]
    out = []
    for shift in range(41):
        pieces = [rng.choice(parts) for _ in range(rng.randint(8, 30))]
        joins = [rng.choice([" ", "", "  ", "\t", "\n", ""]) for _ in pieces]
        body = "".join(p + j for p, j in zip(pieces, joins))
        out += ["a" * shift + body, "." * shift + body, " " * shift + body + "!", "b" * shift + "," + body]
        # A byte a block stops at (an accented letter, a control byte, a
        # mark, CJK, NBSP) after 0-40 ASCII bytes: the bytes before it
        # are taken by the block, the rest by the scalar loop.
        for stop in ("é", "\x01", "\u0301", "中", "\u00a0", "Ж", "\x7f"):
            cut = rng.randint(0, len(body))
            out.append("c" * shift + body[:cut] + stop + body[cut:])
    return out


def test_ascii_blocks(bert):
    ref, ours = bert
    check_all_ways(BASE, ref, ours, ascii_block_texts())


def test_every_code_point_matches_the_general_pipeline(bert):
    """Each code point between letters, next to punctuation and alone: the
    route's per-code-point table against the general pipeline's stages."""
    _, ours = bert
    cps = [c for c in range(0x80, 0x110000) if not 0xD800 <= c <= 0xDFFF]
    texts = []
    for i in range(0, len(cps), 48):
        group = cps[i:i + 48]
        texts.append(" ".join(f"a{chr(c)}b" for c in group) + "".join(chr(c) for c in group) + ".")
    expected = [ours.encode(t, add_special_tokens=False, return_encoding=True).ids for t in texts]
    actual = ours.encode_batch(texts, add_special_tokens=False)
    assert_same(f"{BASE} every code point vs general pipeline", texts, expected, actual)


def test_combining_marks_against_hf(bert):
    """Pairs and triples of combining marks of every class: NFD reorders
    them before strip_accents drops the Mn ones."""
    ref, ours = bert
    rng = random.Random(7)
    marks = [chr(c) for c in range(0x300, 0x110000)
             if not 0xD800 <= c <= 0xDFFF and unicodedata.combining(chr(c))]
    texts = []
    for m in marks:
        others = rng.sample(marks, 4)
        texts += ["a" + m + o + "b" for o in others] + [o + m for o in others] + ["x" + m + m]
    check_all_ways(f"{BASE} combining marks", ref, ours, texts)


VARIANTS = {
    "strip_true": dict(strip_accents=True),
    "strip_false": dict(strip_accents=False),
    "cased": dict(lowercase=False),                      # strip_accents None follows lowercase: off
    "cased_strip": dict(lowercase=False, strip_accents=True),
    "no_clean": dict(clean_text=False),
    "no_chinese": dict(handle_chinese_chars=False),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_normalizer_options(tmp_path, variant):
    spec = load_json(corpus.file_path("tokenizers", BASE, "tokenizer.json"))
    spec["normalizer"].update(VARIANTS[variant])
    ref, ours = pair_from(spec, tmp_path, variant)
    assert ours.debug_info()["ids_route"].startswith("BertNormalizer and BertPreTokenizer fused")
    check_all_ways(f"{BASE} {variant}", ref, ours, edge_strings())
    check_all_ways(f"{BASE} {variant} corpus", ref, ours, corpus_lines_and_paragraphs()[::13], specials=(False,))


def test_normalized_added_token_keeps_the_route_unfused(tmp_path):
    """A normalized added token is matched after normalization, so the
    route takes normalized text from the caller."""
    spec = load_json(corpus.file_path("tokenizers", BASE, "tokenizer.json"))
    spec["added_tokens"].append({"id": len(spec["model"]["vocab"]), "content": "Hello World", "single_word": False,
                                 "lstrip": False, "rstrip": False, "normalized": True, "special": False})
    ref, ours = pair_from(spec, tmp_path, "normalized_added")
    assert ours.debug_info()["ids_route"].startswith("BertPreTokenizer words")
    texts = ["hello world!", "HELLO WORLD, Héllo Wörld", "xhello worldy"] + edge_strings()
    check_all_ways(f"{BASE} normalized added token", ref, ours, texts)


def test_vocab_out_of_byte_order(bert, monkeypatch):
    """A file whose WordPiece records are in id order, not byte order: the
    vocab trie (models/wordpiece/wordpiece_trie.cc) cannot take the tokens
    in the order they lie in memory and sorts them first. Same ids."""
    import mtok
    from mtok.convert import load_spec
    from mtok.format import models
    from mtok.format.writer import write_mtok

    ref, _ = bert
    by_bytes = models.sorted_vocab
    monkeypatch.setattr(models, "sorted_vocab", lambda vocab, where: sorted(by_bytes(vocab, where),
                                                                            key=lambda item: item[1]))
    data = write_mtok(load_spec(str(corpus.require("tokenizers", BASE, "tokenizer.json"))))
    record = {t: struct.pack("<H", len(t)) + t + struct.pack("<I", i) for t, i in ((b"[PAD]", 0), (b"[UNK]", 100), (b"!", 999))}
    assert 0 < data.find(record[b"[PAD]"]) < data.find(record[b"[UNK]"]) < data.find(record[b"!"])
    ours = mtok.Tokenizer.from_bytes(data)
    ours.no_truncation()  # as corpus.hf_pair leaves ref
    ours.no_padding()
    texts = corpus_lines_and_paragraphs()[:400] + edge_strings()
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    assert_same(f"{BASE} records in id order", texts, expected,
                [ours.encode(t, add_special_tokens=False) for t in texts])
