"""Writes the hostile-file corpus (tests/format/hostile/*.mtok): small
.mtok files that are each wrong in one way, with the exact FormatError
message mtok must give. tests/format/test_hostile_corpus.py loads them.

    PYTHONPATH=src:tests python tests/format/make_hostile.py

Regression files found by fuzzing are kept as found (not generated); their
messages are in REGRESSIONS.
"""

import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent / "hostile"
HEADER = b"430 4\n0 0 0\n\n"  # 13 bytes


def u8(v): return struct.pack("<B", v)
def u16(v): return struct.pack("<H", v)
def u32(v): return struct.pack("<I", v)
def u64(v): return struct.pack("<Q", v)
def s(b): return u16(len(b)) + b


def bpe(vocab, merges=(), full=False, vocab_size=None):
    """A BPE model section: code 0 (or 64 with no flags); vocab is
    [(bytes, id)], merges [(left, right, rank)] or with merged ids when full."""
    out = u8(64 if full else 0) + u32(len(vocab) if vocab_size is None else vocab_size)
    out += u8(0) + u8(0) + u32(len(merges))
    if full:
        out += u8(0) + u32(0) + s(b"") + s(b"")
    for tok, i in vocab:
        out += s(tok) + u32(i)
    for m in merges:
        out += b"".join(u32(v) for v in m)
    return out


VOCAB = [(b"a", 0), (b"b", 1), (b"ab", 2)]
MODEL = bpe(VOCAB, [(0, 1, 0)])
NO_ADDED = u32(0)
DECODER = u8(64)  # None


def body(norm=b"\x00", pre=b"\x00", model=MODEL, dec=DECODER, added=NO_ADDED, header=HEADER):
    return header + norm + pre + model + dec + added


GOOD = body()  # 13 + 1 + 1 + 45 + 1 + 4 = 65 bytes
MODEL_AT = 15


def tail(chat=b"", eos=b"", flags=0, bos=b""):
    return u32(len(chat)) + chat + s(eos) + u8(flags) + s(bos)


def trailer(base, entries, payloads=b"", begin=None):
    """base + trailer table + payloads + end-of-file locator; entries are
    (tag, flags, offset, size) with absolute offsets."""
    out = base + b"MTOKEXT1" + u32(len(entries))
    for tag, flags, off, size in entries:
        out += tag + u32(flags) + u64(off) + u64(size)
    return out + payloads + u64(len(base) if begin is None else begin) + b"MTOKEND1"


def nested(code, seq_code, depth):
    """Sequence(Sequence(...)) depth levels deep, innermost empty."""
    return (u8(seq_code) + u32(1)) * depth + u8(seq_code) + u32(0)


def cases():
    """(name, bytes, exact message)."""
    c = []
    # --- header -----------------------------------------------------------
    c.append(("empty", b"", "header at byte 0: header line has no end of line"))
    c.append(("truncated_header", b"430 4\n0 0", "header at byte 6: header line has no end of line"))
    c.append(("bad_magic", b"431 4\n0 0 0\n\n",
              'header at byte 0: not an MNN tokenizer file (first line must be "430 <type>")'))
    c.append(("header_number_overflow", b"430 4\n99999999999 0 0\n\n", "header at byte 6: number too large"))
    c.append(("header_count_mismatch", b"430 4\n2 0 0\n1\n", "header at byte 12: ids line holds 1 ids, counts say 2"))
    c.append(("header_id_beyond_vocab", body(header=b"430 4\n0 1 0\n7\n"),
              "header at byte 12: stop id 7 is neither in the vocab nor an added token"))
    # --- truncations --------------------------------------------------------
    c.append(("truncated_in_model_header", GOOD[:MODEL_AT + 8], f"model at byte {MODEL_AT + 7}: unexpected end of file"))
    c.append(("truncated_in_vocab", GOOD[:MODEL_AT + 20], f"model at byte {MODEL_AT + 11}: 3 records of 6 bytes run past the end of the file"))
    c.append(("truncated_in_merges", GOOD[:MODEL_AT + 40], f"model at byte {MODEL_AT + 33}: 1 records of 12 bytes run past the end of the file"))
    c.append(("truncated_in_token", body(model=bpe([(b"abc", 0)]))[:MODEL_AT + 14],
              f"model at byte {MODEL_AT + 11}: 1 records of 6 bytes run past the end of the file"))
    c.append(("truncated_in_token_bytes", body(model=bpe([(b"abcdefgh", 0)]))[:MODEL_AT + 18],
              f"model at byte {MODEL_AT + 13}: length 8 runs past the end of the file (5 bytes left)"))
    c.append(("truncated_before_decoder", GOOD[:MODEL_AT + 45], f"decoder at byte {MODEL_AT + 45}: unexpected end of file"))
    c.append(("truncated_in_added_count", GOOD[:-2], f"added_tokens at byte {len(GOOD) - 4}: unexpected end of file"))
    # --- huge declared lengths ------------------------------------------------
    c.append(("huge_vocab_size", body(model=bpe(VOCAB, [(0, 1, 0)], vocab_size=0xFFFFFFFF)),
              f"model at byte {MODEL_AT + 11}: 4294967295 records of 6 bytes run past the end of the file"))
    c.append(("huge_token_length", body(model=u8(0) + u32(1) + u8(0) + u8(0) + u32(0) + u16(0xFFFF) + b"ab"),
              f"model at byte {MODEL_AT + 13}: length 65535 runs past the end of the file (7 bytes left)"))
    c.append(("huge_added_count", body(added=u32(0xFFFFFFFF)),
              f"added_tokens at byte {len(GOOD)}: 4294967295 records of 9 bytes run past the end of the file"))
    c.append(("huge_sequence_count", body(norm=u8(4) + u32(0xFFFFFFFF)),
              "normalizer at byte 18: 4294967295 records of 1 bytes run past the end of the file"))
    c.append(("huge_chat_template_length", GOOD + u32(0xFFFFFFF0) + b"{{",
              f"chat_template at byte {len(GOOD) + 4}: length 4294967280 runs past the end of the file (2 bytes left)"))
    # --- ids ---------------------------------------------------------------------
    c.append(("vocab_id_beyond_limit", body(model=bpe([(b"a", 1 << 24)])),
              f"model at byte {MODEL_AT + 11}: token id 16777216 is beyond the limit of 2^24"))
    c.append(("vocab_id_sparse_huge", body(model=bpe([(b"a", 1 << 23)])),
              f"model at byte {MODEL_AT + 11}: token id 8388608 is too large for a file of 38 bytes (limit 65548)"))
    c.append(("vocab_id_twice", body(model=bpe([(b"a", 0), (b"b", 0)])),
              f"model at byte {MODEL_AT + 18}: token id 0 appears twice in the vocab"))
    c.append(("merge_id_not_in_vocab", body(model=bpe(VOCAB, [(0, 9, 0)])),
              f"model at byte {MODEL_AT + 33}: merge 0 refers to an id not in the vocab"))
    c.append(("merge_result_not_in_vocab", body(model=bpe(VOCAB, [(1, 0, 0)])),
              f"model at byte {MODEL_AT + 33}: merge 0 produces a token not in the vocab"))
    c.append(("merge_cycle", body(model=bpe(VOCAB, [(0, 1, 0, 0)], full=True)),
              f"model at byte {MODEL_AT + 42}: merge 0 produces id 0, which is not its left token followed by its right"))
    c.append(("added_id_beyond_limit", body(added=u32(1) + u32(1 << 24) + b"\x01\x00\x00" + s(b"<s>")),
              f"added_tokens at byte {len(GOOD)}: added token id beyond the limit of 2^24"))
    c.append(("post_program_id_beyond_vocab", GOOD + tail() + u16(1) + u8(1) + u32(99),
              f"post_program at byte {len(GOOD) + 12}: special token id 99 is neither in the vocab nor an added token"))
    # --- UTF-8 ------------------------------------------------------------------
    c.append(("non_utf8_vocab_token", body(model=bpe([(b"a\xff", 0)])),
              f"model at byte {MODEL_AT + 14}: vocab token is not valid UTF-8"))
    c.append(("non_utf8_surrogate_token", body(model=bpe([(b"\xed\xa0\x80", 0)])),
              f"model at byte {MODEL_AT + 13}: vocab token is not valid UTF-8"))
    c.append(("non_utf8_added_token", body(added=u32(1) + u32(5) + b"\x01\x00\x00" + s(b"\xc0\xaf")),
              f"added_tokens at byte {len(GOOD) + 9}: added token content is not valid UTF-8"))
    c.append(("non_utf8_eos", GOOD + u32(0) + s(b"\x80"), f"eos at byte {len(GOOD) + 6}: eos token is not valid UTF-8"))
    c.append(("non_utf8_chat_template", GOOD + u32(3) + b"ok\xfe",
              f"chat_template at byte {len(GOOD) + 6}: chat template is not valid UTF-8"))
    # --- components ----------------------------------------------------------------
    c.append(("unknown_normalizer", body(norm=b"\x09"), "normalizer at byte 13: unknown normalizer type 9"))
    c.append(("bad_flag_byte", body(pre=b"\x01\x02"), "pre_tokenizer at byte 15: flag byte is 2, expected 0 or 1"))
    c.append(("byte_level_model", body(model=u8(0) + u32(0) + u8(0) + u8(1) + u32(0)),
              f"model at byte {MODEL_AT + 11}: BPE byte_level = 1 (the model maps bytes itself) is not supported"))
    c.append(("bad_regex", body(pre=u8(4) + s(b"(ab") + u8(0) + u8(0)),
              "pre_tokenizer at byte 15: regex (ab: regex: missing ')' at offset 0 in pattern"))
    c.append(("deep_normalizer_sequence", body(norm=nested(0, 4, 17)),
              "normalizer at byte 98: normalizer Sequence nested too deeply"))
    c.append(("deep_pre_tokenizer_sequence", body(pre=nested(0, 6, 40)),
              "pre_tokenizer at byte 99: pre-tokenizer Sequence nested too deeply"))
    c.append(("deep_decoder_sequence", body(dec=nested(0, 7, 1000)),
              f"decoder at byte {MODEL_AT + 45 + 5 * 17}: decoder Sequence nested too deeply"))
    # --- extension trailer -------------------------------------------------------------
    base = GOOD + tail()
    t0 = len(base)  # trailer start; the table ends at t0 + 12 + 24 * n
    atfl = b"ATFL"
    c.append(("trailer_huge_count", base + b"MTOKEXT1" + u32(0xFFFFFFFF) + u64(t0) + b"MTOKEND1",
              f"extension trailer at byte {t0 + 12}: 4294967295 records of 24 bytes run past the end of the file"))
    c.append(("trailer_locator_out_of_range", trailer(base, [], begin=2**63),
              f"extension trailer at byte {t0 + 12}: trailer offset 9223372036854775808 is out of range"))
    c.append(("trailer_locator_no_magic", trailer(base, [], begin=3),
              "extension trailer at byte 3: no trailer magic at the offset the locator gives"))
    end1 = t0 + 12 + 24
    c.append(("trailer_offset_in_table", trailer(base, [(atfl, 0, t0, 4)], u32(0)),
              f"extension trailer at byte {t0}: section ATFL at offset {t0} overlaps the table or another section"))
    c.append(("trailer_offset_past_end", trailer(base, [(atfl, 0, end1 + 100, 4)]),
              f"extension trailer at byte {t0}: section ATFL (offset {end1 + 100}, size 4) runs past the end of the file"))
    c.append(("trailer_offset_in_locator", trailer(base, [(atfl, 0, end1, 8)]),
              f"extension trailer at byte {t0}: section ATFL (offset {end1}, size 8) runs past the end of the file"))
    c.append(("trailer_size_overflow", trailer(base, [(atfl, 0, end1, 2**64 - 1)], u32(0)),
              f"extension trailer at byte {t0}: section ATFL (offset {end1}, size 18446744073709551615) runs past the end of the file"))
    end2 = t0 + 12 + 48
    c.append(("trailer_overlap", trailer(base, [(atfl, 0, end2, 8), (b"XTRA", 0, end2 + 4, 4)], u64(0)),
              f"extension trailer at byte {t0}: section XTRA at offset {end2 + 4} overlaps the table or another section"))
    c.append(("trailer_unknown_required", trailer(base, [(b"XTRA", 1, end1, 4)], u32(0)),
              f"extension section XTRA at byte {end1}: required section of unknown kind; this file needs a newer mtok"))
    c.append(("trailer_unread_bytes", trailer(base, [(atfl, 0, end1, 8)], u32(0) + u32(0)),
              f"extension section ATFL at byte {end1 + 4}: 4 unread bytes at the end of the section"))
    c.append(("trailer_flags_count", trailer(base, [(atfl, 0, end1, 4)], u32(3)),
              f"extension section ATFL at byte {end1}: holds flags for 3 added tokens, the file has 0"))
    c.append(("trailing_garbage", base + b"JUNK",
              f"post_program at byte {len(base) + 2}: unknown post-processor op 78"))
    return c


# Files found by fuzzing, kept as found: name -> exact message.
REGRESSIONS = {}


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, data, _ in cases():
        (HERE / f"{name}.mtok").write_bytes(data)


if __name__ == "__main__":
    main()
