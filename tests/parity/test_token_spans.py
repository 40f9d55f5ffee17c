"""Long byte-level pre-tokens encoded in parts (cpp/src/models/bpe/token_spans.h):
a first-seen piece of 16 bytes or more is cut where no token's bytes can lie
across, and each part is encoded and cached on its own. The cut points must
be sound (checked by brute force against every token, on small vocabularies
and on Llama 3's), they must be found on CJK text, and the ids must be HF's,
with the cache off, cold and warm, on text made to sit on the edges of
multi-character tokens."""

import json
import random

import pytest

import corpus
import mtok
from harness import assert_same, byte_level_bpe, byte_level_decoder, compare_with_hf
from hooks_module import hooks

NAMES = ("llama3", "qwen3", "gpt-4o-o200k-hf")


@pytest.fixture(autouse=True)
def restore_bound():
    before = mtok.piece_cache_mb()
    yield
    mtok.set_piece_cache_mb(before)


def _raw_vocab(name):
    """The raw bytes of every token of a corpus tokenizer.json (byte-level)."""
    with open(corpus.require("tokenizers", name, "tokenizer.json"), encoding="utf-8") as f:
        vocab = json.load(f)["model"]["vocab"]
    dec = byte_level_decoder()
    return [bytes(dec[c] for c in tok) for tok in vocab if all(c in dec for c in tok)]


def _unsound(tokens, piece, cuts):
    """The cuts that some occurrence of a token of 2 bytes or more lies across."""
    by_len = {}
    for t in tokens:
        if len(t) >= 2:
            by_len.setdefault(len(t), set()).add(t)
    bad = []
    for p in cuts:
        for n, same_len in by_len.items():
            if any(piece[i:i + n] in same_len for i in range(max(0, p - n + 1), min(p, len(piece) - n + 1))):
                bad.append(p)
                break
    return bad


def test_cuts_are_sound_on_small_vocabularies():
    rng = random.Random(7)
    found = 0
    for _ in range(300):
        # Cuts are looked for only before bytes of 0xE0 and above (where a
        # character of 3 or 4 bytes starts).
        alphabet = b"ab\xe3\xe4"
        tokens = [bytes([c]) for c in alphabet]
        tokens += [bytes(rng.choice(alphabet) for _ in range(rng.randint(2, 5))) for _ in range(rng.randint(1, 12))]
        piece = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        cuts = hooks().token_span_cuts(tokens, piece)
        assert _unsound(tokens, piece, cuts) == [], (tokens, piece, cuts)
        # Tables read as one run of bytes or token by token: the same cuts.
        assert hooks().token_span_cuts(tokens, piece, broken_tail=True) == cuts
        found += len(cuts)
    assert found > 1000  # the test sees cuts, not only refusals


def test_cuts_are_sound_and_found_on_llama3_cjk():
    tokens = _raw_vocab("llama3")
    pieces = []
    for rel, text in corpus.text_files():
        runs = [r for r in text.split() if len(r.encode()) >= 16 and any(ord(c) >= 0x3000 for c in r)]
        pieces += runs[:40]
    assert len(pieces) > 100, "the corpus has CJK text"
    cut = points = 0
    for k, text in enumerate(pieces[:400]):
        piece = text.encode()
        cuts = hooks().token_span_cuts(tokens, piece)
        assert _unsound(tokens, piece, cuts) == [], (text, cuts)
        if k % 20 == 0:  # read token by token: the same cuts
            assert hooks().token_span_cuts(tokens, piece, broken_tail=True) == cuts
        cut += len(cuts)
        points += sum(1 for i in range(1, len(piece)) if piece[i] >= 0xE0)
    assert cut > points / 3, (cut, points)  # most CJK character edges lie outside every token


def _edge_text(tokens, rng, n):
    """Text glued from overlapping pieces of multi-character CJK tokens:
    each edge sits where a token may or may not continue."""
    cjk = [t.decode() for t in tokens if len(t) >= 6 and t[0] >= 0xE3 and _decodes(t)]
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(3, 12)):
            t = rng.choice(cjk)
            a = rng.randrange(len(t))
            parts.append(t[a:] if rng.random() < 0.5 else t[:a + 1])
        out.append("".join(parts))
    return out


def _decodes(b):
    try:
        b.decode()
        return True
    except UnicodeDecodeError:
        return False


def _assert_hf_ids_cache_off_cold_warm(ref, tok, texts, what):
    """HF's ids with the piece cache off, then on and empty, then warm."""
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    for bound, rnd in ((0, "cache off"), (64, "cold"), (64, "warm")):
        if rnd != "warm":
            mtok.set_piece_cache_mb(bound)
        got = [tok.encode(t, add_special_tokens=False) for t in texts]
        assert_same(f"{what}, {rnd}", texts, expected, got, limit=2)


@pytest.mark.parametrize("name", NAMES)
def test_same_ids_as_hf_on_token_edges(name):
    ref, tok = corpus.hf_pair(name)
    rng = random.Random(name)
    texts = _edge_text(_raw_vocab("llama3"), rng, 1500)
    texts += [t for _, text in corpus.text_files() for t in text.split() if len(t.encode()) >= 16][:3000]
    _assert_hf_ids_cache_off_cold_warm(ref, tok, texts, f"{name} parts")


def _one_character_clauses(rng, n):
    """CJK clauses whose parts are mostly one character: characters of the
    corpus's CJK text, rare ideographs (most of them no token of their own
    in these vocabularies: their bytes merge into parts of tokens), and a few
    two-byte letters, drawn at random, so that most neighbours share no
    token and the clause is cut between them."""
    seen = {c for _, text in corpus.text_files() for c in text if 0x3040 <= ord(c) <= 0x9FFF}
    rare = [chr(c) for c in range(0x3400, 0x3440)] + [chr(c) for c in range(0x9F80, 0x9FC0)]
    pool = sorted(seen) + rare * 4 + list("éüñçöжщяДΩλ")
    return ["".join(rng.choice(pool) for _ in range(rng.randint(6, 24))) for _ in range(n)]


def test_one_character_clauses_are_cut_between_characters():
    # The clauses below test the one-character parts only if they have them.
    tokens = _raw_vocab("llama3")
    texts = _one_character_clauses(random.Random(0), 200)
    cut = edges = 0
    for text in texts:
        piece = text.encode()
        cut += len(hooks().token_span_cuts(tokens, piece))
        edges += sum(1 for i in range(1, len(piece)) if piece[i] >= 0xE0)
    assert cut > edges * 2 / 3, (cut, edges)


@pytest.mark.parametrize("name", NAMES)
def test_one_character_parts_give_hf_ids(name):
    # A part that is one character is given its token from the fold tables,
    # without the merge loop and the cache (ByteBpe::CharToken); characters
    # that fold everywhere, only away from some neighbours (alone in a part
    # they have none), and not at all.
    ref, tok = corpus.hf_pair(name)
    texts = _one_character_clauses(random.Random(name), 3000)
    texts += [f"{t} {t}。{t}" for t in texts[:300]]
    _assert_hf_ids_cache_off_cold_warm(ref, tok, texts, f"{name} one-character parts")


@pytest.mark.parametrize("name", NAMES)
def test_a_long_piece_that_is_a_token_is_that_token(name):
    # A piece with a cut is no token, so only an uncut one is looked up
    # whole: every token of 16 bytes and more with a tracked point (a CJK
    # phrase, say), alone and between spaces, must still be itself.
    ref, tok = corpus.hf_pair(name)
    dec = byte_level_decoder()
    texts = []
    for raw in (bytes(dec[c] for c in t) for t in ref.get_vocab() if all(c in dec for c in t)):
        if len(raw) >= 16 and any(b >= 0xE0 for b in raw[1:]):
            try:
                text = raw.decode()
            except UnicodeDecodeError:
                continue
            texts += [text, f"a {text} b"]
    assert len(texts) > 200
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    assert_same(f"{name} long tokens", texts, expected, [tok.encode(t, add_special_tokens=False) for t in texts])


# A small vocabulary whose tokens lie across the edges of 朝 (E6 9C 9D)
# and 日 (E6 97 A5) in each window class: two bytes (9D E6), one byte
# left and two right (9D E6 97), two left and one right (9C 9D E6), and
# two on each side (9C 9D E6 97). A cut at any of those edges changes ids.
def _bytes(*codes):
    dec = {b: c for c, b in byte_level_decoder().items()}
    return "".join(dec[c] for c in codes)


@pytest.mark.parametrize("across", [
    [(0x9D, 0xE6)],
    [(0x9D, 0xE6), ((0x9D, 0xE6), 0x97)],
    [(0x9C, 0x9D), ((0x9C, 0x9D), 0xE6)],
    [(0x9C, 0x9D), (0xE6, 0x97), ((0x9C, 0x9D), (0xE6, 0x97))],
], ids=["2 bytes", "1+2", "2+1", "2+2"])
def test_tokens_across_character_edges_keep_their_ids(tmp_path, across):
    pytest.importorskip("tokenizers")

    def sym(x):
        return _bytes(*x) if isinstance(x, tuple) else _bytes(x)

    merges = [(sym(a), sym(b)) for a, b in across]
    merges += [(_bytes(0xE6), _bytes(0x9C)), (_bytes(0xE6, 0x9C), _bytes(0x9D)),
               (_bytes(0xE6), _bytes(0x97)), (_bytes(0xE6, 0x97), _bytes(0xA5))]
    samples = ["朝日" * k for k in range(1, 9)] + ["日朝" * k for k in range(3, 9)] + ["朝朝日日朝朝朝日"]
    compare_with_hf(byte_level_bpe(merges), samples, tmp_path, f"across {across}")


def test_tables_growing_while_a_piece_caches_its_parts():
    # The short table grows (and the tables move) when it has cached half
    # as many keys as it has slots (2^16 at first). 32,000 distinct short
    # words bring it near that; then the new parts of long first-seen
    # pieces cross it while the long or huge key's slot is held for the
    # whole piece, which must then be found again.
    ref, tok = corpus.hf_pair("llama3")
    rng = random.Random(3)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = " ".join("".join(rng.choice(letters) for _ in range(7)) for _ in range(32000))
    cjk = sorted({c for t in _raw_vocab("llama3") if _decodes(t) for c in t.decode() if "\u4e00" <= c <= "\u9fff"})
    pieces = ["".join(rng.choice(cjk) for _ in range(rng.randint(6, 40))) for _ in range(400)]
    mtok.set_piece_cache_mb(64)  # a fresh cache at its first, smallest size
    small = int(tok.debug_info()["piece_cache_bytes"])
    got = [tok.encode(words, add_special_tokens=False)] + [tok.encode(p, add_special_tokens=False) for p in pieces]
    assert int(tok.debug_info()["piece_cache_bytes"]) > small  # it grew
    texts = [words] + pieces
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    assert_same("llama3 parts while the tables grow", texts, expected, got, limit=2)


def test_first_cuts_on_two_threads():
    # A fresh tokenizer whose first encode is a batch on two threads: both
    # may ask for the span table at once, which is built once.
    ref, _ = corpus.hf_pair("llama3")
    tok = mtok.Tokenizer.from_file(corpus.file_path("tokenizers", "llama3", "tokenizer.json"))
    texts = _edge_text(_raw_vocab("llama3"), random.Random(5), 400)
    expected = [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]
    got = tok.encode_batch(texts, add_special_tokens=False, num_threads=2)
    assert_same("llama3 parts, first encode on two threads", texts, expected, got, limit=2)
