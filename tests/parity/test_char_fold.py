"""Byte-level BPE character folds (sections BFLD and BFLC,
cpp/src/models/bpe/char_fold.h): characters whose bytes always merge into
one token start a word as that token, and (BFLC) so do characters that
only a few neighbours could take a byte from, where none of those is
beside them. The ids must be the same with and without the sections, on
real tokenizers (next to each neighbour that may interfere, too) and on
small ones where a neighbour can take a byte first; a corrupt section is
refused."""

import struct

import pytest

import mtok
from harness import (assert_same, byte_level_bpe, compare_with_hf, exported, hide_sections, section,
                     short_parity_strings)

LLAMA3 = ("tokenizers", "llama3", "tokenizer.json")
QWEN3 = ("tokenizers", "qwen3", "tokenizer.json")
O200K = ("tiktoken", "o200k_base.tiktoken")
HEAD = 8 + 1024 * 8  # [u32 count][u32 0][u64 bits[1024]]


def _fold_count(data):
    entry = section(data, "BFLD")
    return None if entry is None else (entry["size"] - HEAD) // 4


@pytest.fixture(scope="module", params=[LLAMA3, QWEN3, O200K], ids=["llama3", "qwen3", "o200k"])
def files(request):
    return exported(request.param)


def test_folds_are_stored_and_reported(files):
    with_fold, without = files
    count = _fold_count(with_fold)
    in_context = len(_in_context(with_fold)[0])
    assert count and count > 100  # hundreds of CJK and Cyrillic characters in each of these
    assert in_context > 1000  # thousands more fold where a space or a few characters are not beside them
    assert section(without, "BFLD") is None and section(without, "BFLC") is None
    assert (mtok.Tokenizer.from_bytes(with_fold).debug_info()["bpe_char_fold"]
            == f"{count} characters, {in_context} more by their neighbours")
    assert mtok.Tokenizer.from_bytes(without).debug_info()["bpe_char_fold"] == "none"


def test_same_ids_with_and_without_folds(files):
    with_fold, without = files
    texts = short_parity_strings(4000)
    a = mtok.Tokenizer.from_bytes(with_fold).encode_batch(texts, add_special_tokens=False)
    b = mtok.Tokenizer.from_bytes(without).encode_batch(texts, add_special_tokens=False)
    assert_same("char folds vs bytes", texts, b, a)


def test_same_ids_without_the_folds_by_neighbours(files):
    with_fold = files[0]
    texts = short_parity_strings(4000)
    a = mtok.Tokenizer.from_bytes(with_fold).encode_batch(texts, add_special_tokens=False)
    b = mtok.Tokenizer.from_bytes(hide_sections(with_fold, "BFLC")).encode_batch(texts, add_special_tokens=False)
    assert_same("folds by neighbours vs none", texts, b, a)


CONTEXT_HEAD = 8 + 1024 * 8  # [u32 count][u32 neighbour_count][u64 bits[1024]]


def _in_context(data):
    """(characters, their (left, right) neighbour byte strings) of the BFLC section."""
    entry = section(data, "BFLC")
    at, end = entry["offset"], entry["offset"] + entry["size"]
    count, neighbour_count = struct.unpack_from("<II", data, at)
    words = struct.unpack_from("<1024Q", data, at + 8)
    chars = [chr(64 * k + b) for k, w in enumerate(words) for b in range(64) if w >> b & 1]
    records = at + CONTEXT_HEAD
    pool = records + 8 * count
    assert pool + 16 * neighbour_count == end
    sides = []
    for k in range(count):
        _, first, left, right = struct.unpack_from("<IHBB", data, records + 8 * k)
        got = [struct.unpack_from("<QI", data, pool + 16 * (first + j)) for j in range(left + right)]
        got = [word.to_bytes(8, "little")[:n] for word, n in got]
        sides.append((got[:left], got[left:]))
    return chars, sides


def _reference_ids(param_id, texts):
    """The reference library's ids of `texts` for the `files` parameter:
    tokenizers for a tokenizer.json, tiktoken for o200k's .tiktoken."""
    import corpus

    if param_id == "o200k":
        tiktoken = pytest.importorskip("tiktoken")
        from tiktoken.load import load_tiktoken_bpe

        from mtok.convert.openai_encodings import ENCODING_SPECS

        base, _, pattern, specials, n_vocab = ENCODING_SPECS["o200k_base"]
        ranks = load_tiktoken_bpe(str(corpus.file_path(*O200K)))
        ref = tiktoken.Encoding("o200k_base", pat_str=pattern, mergeable_ranks=ranks, special_tokens=specials,
                                explicit_n_vocab=n_vocab)
        return ref.encode_ordinary_batch(texts)
    tokenizers = pytest.importorskip("tokenizers")
    ref = tokenizers.Tokenizer.from_file(str(corpus.file_path(*{"llama3": LLAMA3, "qwen3": QWEN3}[param_id])))
    return [e.ids for e in ref.encode_batch(texts, add_special_tokens=False)]


def test_same_ids_as_the_reference_beside_each_neighbour(files, request):
    """Each character that folds by its neighbours, with each of them
    beside it (where it must start as bytes) and with others (where it
    folds), against the reference."""
    ours = mtok.Tokenizer.from_bytes(files[0])
    chars, sides = _in_context(files[0])
    texts = []
    for c, (left, right) in list(zip(chars, sides))[::7]:  # a seventh of them: thousands of strings
        for b in left:
            try:
                texts += [b.decode() + c, "\u4e2d" + b.decode() + c + "\u6587"]
            except UnicodeDecodeError:
                pass  # the end of a character: reached through the next ones
        for b in right:
            try:
                texts += [c + b.decode(), c + b.decode() + c]
            except UnicodeDecodeError:
                pass
        texts += [c * 3, "x" + c + c + "y", "\u3042" + c + "\u3044"]
    expected = _reference_ids(request.node.callspec.id, texts)
    assert_same("folds beside their neighbours", texts, expected, ours.encode_batch(texts, add_special_tokens=False))


def _context_payload_at(data):
    return section(data, "BFLC")["offset"]


def _refused(data, match):
    with pytest.raises(mtok.FormatError, match=match):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_context_count_mismatch_is_a_format_error(files):
    data = bytearray(files[0])
    at = _context_payload_at(data)
    (count,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, count + 1)
    _refused(data, "BFLC: size does not match")


def test_context_wrong_token_is_a_format_error(files):
    data = bytearray(files[0])
    at = _context_payload_at(data) + CONTEXT_HEAD
    first, second = struct.unpack_from("<I", data, at)[0], struct.unpack_from("<I", data, at + 8)[0]
    struct.pack_into("<I", data, at, second)
    assert second != first
    _refused(data, "BFLC: entry 0 is not the token of its character")


@pytest.mark.parametrize("length", [0, 9])
def test_context_neighbour_of_bad_length_is_a_format_error(files, length):
    data = bytearray(files[0])
    at = _context_payload_at(data)
    (count,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at + CONTEXT_HEAD + 8 * count + 8, length)
    _refused(data, "BFLC: neighbour 0 is not 1 to 8 bytes")


def test_context_neighbours_out_of_range_are_a_format_error(files):
    data = bytearray(files[0])
    at = _context_payload_at(data)
    struct.pack_into("<B", data, at + CONTEXT_HEAD + 6, 5)  # entry 0: five on the left
    _refused(data, "BFLC: entry 0 has neighbours out of range")


def test_a_character_in_both_sections_is_a_format_error(files):
    data = bytearray(files[0])
    fold_bits = _payload_at(data) + 8
    context_bits = _context_payload_at(data) + 8
    k = next(i for i in range(1024) if struct.unpack_from("<Q", data, fold_bits + 8 * i)[0])
    (word,) = struct.unpack_from("<Q", data, fold_bits + 8 * k)
    (other,) = struct.unpack_from("<Q", data, context_bits + 8 * k)
    struct.pack_into("<Q", data, context_bits + 8 * k, other | (word & -word))
    _refused(data, "BFLC: a character is also in BFLD")


def test_the_context_section_needs_the_raw_tables(files):
    hidden = hide_sections(files[0], "BRAW", "BHSH", "BFLD", "BWHL", "PFLT", "BSPN", "BSHT", "BTAG")
    with pytest.raises(mtok.FormatError, match="BFLC, .* need BRAW and BHSH"):
        mtok.Tokenizer.from_bytes(hidden)


def _payload_at(data):
    return section(data, "BFLD")["offset"]


def test_count_mismatch_is_a_format_error(files):
    data = bytearray(files[0])
    at = _payload_at(data)
    (count,) = struct.unpack_from("<I", data, at)
    struct.pack_into("<I", data, at, count + 1)
    with pytest.raises(mtok.FormatError, match="BFLD: size does not match"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_wrong_token_is_a_format_error(files):
    # An id that is not its character's token would change results
    # silently: the load refuses it.
    data = bytearray(files[0])
    at = _payload_at(data) + HEAD
    (first,) = struct.unpack_from("<I", data, at)
    (second,) = struct.unpack_from("<I", data, at + 4)
    struct.pack_into("<I", data, at, second)
    assert second != first
    with pytest.raises(mtok.FormatError, match="BFLD: entry 0 is not the token of its character"):
        mtok.Tokenizer.from_bytes(bytes(data))


def test_ascii_bit_is_a_format_error(files):
    # Move the first marked character's bit onto "a" (ASCII never folds):
    # the count still matches, the entry check refuses it.
    data = bytearray(files[0])
    bits = _payload_at(data) + 8
    words = list(struct.unpack_from("<1024Q", data, bits))
    k = next(i for i, w in enumerate(words) if w)
    words[k] &= words[k] - 1
    words[1] |= 1 << (ord("a") - 64)
    struct.pack_into("<1024Q", data, bits, *words)
    with pytest.raises(mtok.FormatError, match="BFLD: entry 0 is not the token of its character"):
        mtok.Tokenizer.from_bytes(bytes(data))


# --- a small byte-level vocabulary where 朝 (E6 9C 9D) assembles as
# (E6, 9C) then (E6 9C, 9D), and a merge across a character edge may come first.

def _merges(thief):
    # The byte-level characters of E6, 9C, 9D and 80.
    e6, x9c, x9d, x80 = "\u00e6", "\u013e", "\u013f", "\u0122"
    merges = []
    if thief == "lead":  # 9D then E6: the end of one 朝 and the start of the next
        merges.append((x9d, e6))
    if thief == "continuation":  # 9D then 80: never at a character edge
        merges.append((x9d, x80))
    return merges + [(e6, x9c), (e6 + x9c, x9d)]


@pytest.mark.parametrize("thief, folds, by_neighbours", [(None, 1, 0), ("lead", 0, 1), ("continuation", 1, 0)])
def test_a_character_folds_only_when_no_neighbour_can_take_a_byte(tmp_path, thief, folds, by_neighbours):
    # With the "lead" thief, 朝 folds by its neighbours: not after a 9D
    # (the end of 朝) nor before an E6 (the start of 朝 and 日).
    pytest.importorskip("tokenizers")
    samples = ["朝", "朝朝", "朝朝朝", "a朝b", "朝\u0080", "日朝", "朝日", "朝a朝", "朝 朝"]
    ours = compare_with_hf(byte_level_bpe(_merges(thief)), samples, tmp_path, f"thief {thief}")
    assert ours.debug_info()["bpe_char_fold"] == f"{folds} characters, {by_neighbours} more by their neighbours"
