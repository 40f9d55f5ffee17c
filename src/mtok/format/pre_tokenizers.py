"""Writes the pre-tokenizer section from an HF-style pre-tokenizer spec."""

from ..errors import FormatError
from .binary import ByteWriter
from .codes import MAX_NESTING, Behavior, Pre
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
    if is_regex and behavior in Behavior.SEED:
        w.u8(Pre.SPLIT)
        w.str(pattern, "Split pattern")
        w.flag(invert)
        w.u8(Behavior.SEED[behavior])
    else:
        w.u8(Pre.SPLIT_FULL)
        w.flag(is_regex)
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


WRITERS = {
    "ByteLevel": _byte_level,
    "Split": _split,
    "Digits": _digits,
    "Sequence": _sequence,
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
