"""Writes the pre-tokenizer section from an HF-style pre-tokenizer spec."""

from ..errors import FormatError
from .binary import ByteWriter
from .codes import MAX_NESTING, Behavior, Pattern, Pre
from .patterns import parse_pattern


def _byte_level(w, spec, depth):
    add_prefix_space = bool(spec.get("add_prefix_space", True))
    use_regex = bool(spec.get("use_regex", True))
    if add_prefix_space:
        w.u8(Pre.BYTE_LEVEL_FULL)
        w.flag(add_prefix_space)
        w.flag(use_regex)
        w.flag(spec.get("trim_offsets", True))
    else:
        w.u8(Pre.BYTE_LEVEL)  # the seed's form carries use_regex only
        w.flag(use_regex)


def _split(w, spec, depth):
    is_regex, pattern = parse_pattern(spec.get("pattern"), "Split pre-tokenizer")
    behavior = spec.get("behavior", "Removed")
    if behavior not in Behavior.BY_NAME:
        raise FormatError(f"Split pre-tokenizer: unknown behavior {behavior!r}")
    invert = bool(spec.get("invert", False))
    # tiktoken patterns follow Rust regex rules; tokenizer.json ones Oniguruma's.
    rust = spec.get("mtok_dialect") == "rust"
    if is_regex and not rust and behavior in Behavior.SEED:
        w.u8(Pre.SPLIT)
        w.str(pattern, "Split pattern")
        w.flag(invert)
        w.u8(Behavior.SEED[behavior])
    else:
        w.u8(Pre.SPLIT_FULL)
        w.u8(Pattern.RUST if rust else Pattern.ONIGURUMA if is_regex else Pattern.LITERAL)
        w.str(pattern, "Split pattern")
        w.u8(Behavior.BY_NAME[behavior])
        w.flag(invert)


def _digits(w, spec, depth):
    w.u8(Pre.DIGITS)
    w.flag(spec.get("individual_digits", False))


def _sequence(w, spec, depth):
    parts = spec.get("pretokenizers", [])
    w.u8(Pre.SEQUENCE)
    w.u32(len(parts))
    for p in parts:
        write_pre_tokenizer(w, p, depth + 1)


_PREPEND = {"always": 0, "first": 1, "never": 2}


def metaspace_options(spec, where):
    """(replacement, prepend scheme code, split) of an HF Metaspace spec;
    old files say add_prefix_space instead of prepend_scheme."""
    replacement = spec.get("replacement", "\u2581")
    if not isinstance(replacement, str) or len(replacement) != 1:
        raise FormatError(f"{where}: replacement must be one character, got {replacement!r}")
    scheme = spec.get("prepend_scheme")
    if scheme is None:
        scheme = "always" if spec.get("add_prefix_space", True) else "never"
    if scheme not in _PREPEND:
        raise FormatError(f"{where}: unknown prepend_scheme {scheme!r}")
    return replacement, _PREPEND[scheme], bool(spec.get("split", True))


def _metaspace(w, spec, depth):
    replacement, scheme, split = metaspace_options(spec, "Metaspace pre-tokenizer")
    if split and scheme != _PREPEND["first"]:
        w.u8(Pre.METASPACE)  # the seed's form: always/never, split
        w.str(replacement, "Metaspace replacement")
        w.flag(scheme == _PREPEND["always"])
    else:
        w.u8(Pre.METASPACE_FULL)
        w.str(replacement, "Metaspace replacement")
        w.u8(scheme)
        w.flag(split)


def _simple(code):
    def write(w, spec, depth):
        w.u8(code)
    return write


def _punctuation(w, spec, depth):
    behavior = spec.get("behavior", "Isolated")
    if behavior not in Behavior.BY_NAME:
        raise FormatError(f"Punctuation pre-tokenizer: unknown behavior {behavior!r}")
    w.u8(Pre.PUNCTUATION)
    w.u8(Behavior.BY_NAME[behavior])


def _char_delimiter(w, spec, depth):
    delimiter = spec.get("delimiter")
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise FormatError(f"CharDelimiterSplit: delimiter must be one character, got {delimiter!r}")
    w.u8(Pre.CHAR_DELIMITER)
    w.u32(ord(delimiter))


WRITERS = {
    "ByteLevel": _byte_level,
    "Split": _split,
    "Digits": _digits,
    "Sequence": _sequence,
    "Metaspace": _metaspace,
    "WhitespaceSplit": _simple(Pre.WHITESPACE_SPLIT),
    "Whitespace": _simple(Pre.WHITESPACE),
    "BertPreTokenizer": _simple(Pre.BERT),
    "Punctuation": _punctuation,
    "CharDelimiterSplit": _char_delimiter,
}


def write_pre_tokenizer(w: ByteWriter, spec, depth: int = 0) -> None:
    if depth > MAX_NESTING:
        raise FormatError("pre-tokenizer: Sequence nested more than %d deep" % MAX_NESTING)
    if spec is None:
        w.u8(Pre.NONE)
        return
    kind = spec.get("type")
    writer = WRITERS.get(kind)
    if writer is None:
        raise FormatError(f"pre-tokenizer type {kind!r} is not supported by mtok")
    writer(w, spec, depth)
