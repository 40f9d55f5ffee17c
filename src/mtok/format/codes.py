"""Type codes and tags of the .mtok format (see docs/format.md).

The C++ reader keeps its own copy in cpp/src/io/codes.h; a test checks
that the two agree.
"""

MAGIC = 430
PIPELINE_TYPE = 4
EXT_MAGIC = b"MTOKEXT1"
END_MAGIC = b"MTOKEND1"  # last 8 bytes; the 8 before hold the trailer's offset
MAX_NESTING = 16
MAX_TOKEN_ID = 1 << 24


class Norm:
    NONE, NFKC, PREPEND, REPLACE, SEQUENCE, BERT, NFKC_TABLE, BERT_NFD_TABLE, STRIP = range(9)
    UNICODE_FORM, LOWERCASE, STRIP_ACCENTS, REPLACE_REGEX, PRECOMPILED, BERT_EXACT, SPM_WHITESPACE = range(64, 71)


class Pre:
    NONE, BYTE_LEVEL, DIGITS, METASPACE, SPLIT, BERT, SEQUENCE = range(7)
    (BYTE_LEVEL_FULL, SPLIT_FULL, METASPACE_FULL, WHITESPACE_SPLIT, WHITESPACE, PUNCTUATION,
     CHAR_DELIMITER, UNICODE_SCRIPTS) = range(64, 72)


class Behavior:
    """Split behaviours in the extension Split (and Punctuation)."""

    REMOVED, ISOLATED, MERGED_WITH_PREVIOUS, MERGED_WITH_NEXT, CONTIGUOUS = range(5)
    BY_NAME = {
        "Removed": REMOVED,
        "Isolated": ISOLATED,
        "MergedWithPrevious": MERGED_WITH_PREVIOUS,
        "MergedWithNext": MERGED_WITH_NEXT,
        "Contiguous": CONTIGUOUS,
    }
    # The seed's Split keeps three of them, with its own numbering.
    SEED = {"Isolated": 0, "Removed": 1, "MergedWithPrevious": 2}


class Pattern:
    """Pattern kinds of the extension Split: a literal, a regex in HF's
    (Oniguruma) dialect, or in tiktoken's (Rust regex) dialect."""

    LITERAL, ONIGURUMA, RUST = range(3)


class Model:
    BPE, WORDPIECE, UNIGRAM = range(3)
    BPE_FULL, WORDPIECE_FULL, UNIGRAM_FULL, SENTENCEPIECE_BPE = range(64, 68)
    # BPE_FULL flag bits
    BPE_IGNORE_MERGES, BPE_FUSE_UNK, BPE_RANK_MERGES, BPE_HAS_UNK = 1, 2, 4, 8
    # UNIGRAM_FULL / SENTENCEPIECE_BPE flag bits
    PIECE_BYTE_FALLBACK, PIECE_HAS_UNK, PIECE_SENTENCEPIECE = 1, 2, 4


class Dec:
    BYTE_LEVEL, BYTE_FALLBACK, METASPACE, WORDPIECE, FUSE, REPLACE, STRIP, SEQUENCE = range(8)
    NONE, METASPACE_FULL, REPLACE_REGEX, CTC, BPE_SUFFIX, SENTENCEPIECE = range(64, 70)


class Post:
    NONE, TEMPLATE, BERT, ROBERTA, BYTE_LEVEL, SEQUENCE = range(6)
    ITEM_A, ITEM_B, ITEM_SPECIAL = range(3)
    OP_SEQUENCE_A, OP_SPECIAL_TOKEN = 0, 1


def tag(name: str) -> int:
    """A 4-character section tag as the little-endian u32 stored in the file."""
    raw = name.encode("ascii")
    assert len(raw) == 4
    return int.from_bytes(raw, "little")


class Tag:
    ADDED_FLAGS = tag("ATFL")
    POST = tag("POST")
    TEMPLATES = tag("TMPL")
    # Acceleration: precomputed at export, used in place at load.
    VOCAB_OFFSETS = tag("VOFF")
    VOCAB_INDEX = tag("VHSH")
    PAIR_INDEX = tag("PHSH")
    PAIR_FILTER = tag("PFLT")
    RAW_BYTES = tag("BRAW")
    RAW_INDEX = tag("BHSH")
    RAW_TAGS = tag("BTAG")
    TOKEN_SPANS = tag("BSPN")
    SHORT_TOKENS = tag("BSHT")
    CHAR_FOLD = tag("BFLD")
    CHAR_FOLD_IN_CONTEXT = tag("BFLC")
    WHOLE_TOKENS = tag("BWHL")
    UNIGRAM_TRIE = tag("UTRI")
    WORDPIECE_TRIE = tag("WTRI")
    BPE_BOUNDARIES = tag("BBND")
    OFFSET_TRIM = tag("OFFS")
    TRUNCATION = tag("TRUN")
    PADDING = tag("PADS")
