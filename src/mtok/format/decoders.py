"""Writes the decoder section from an HF-style decoder spec."""

from ..errors import FormatError
from .binary import ByteWriter
from .codes import MAX_NESTING, Dec
from .patterns import parse_pattern


def _simple(code):
    def write(w, spec, depth):
        w.u8(code)
    return write


def _replace(w, spec, depth):
    is_regex, pattern = parse_pattern(spec.get("pattern"), "Replace decoder")
    w.u8(Dec.REPLACE_REGEX if is_regex else Dec.REPLACE)
    w.str(pattern, "Replace pattern")
    w.str(spec.get("content", ""), "Replace content")


def _strip(w, spec, depth):
    content = spec.get("content", " ")
    if len(content) != 1:
        raise FormatError(f"Strip decoder: content must be one character, got {content!r}")
    w.u8(Dec.STRIP)
    w.str(content, "Strip content")
    w.u32(int(spec.get("start", 0)))
    w.u32(int(spec.get("stop", 0)))


def _sequence(w, spec, depth):
    parts = spec.get("decoders", [])
    w.u8(Dec.SEQUENCE)
    w.u32(len(parts))
    for p in parts:
        write_decoder(w, p, depth + 1)


WRITERS = {
    "ByteLevel": _simple(Dec.BYTE_LEVEL),
    "ByteFallback": _simple(Dec.BYTE_FALLBACK),
    "Fuse": _simple(Dec.FUSE),
    "Replace": _replace,
    "Strip": _strip,
    "Sequence": _sequence,
}


def write_decoder(w: ByteWriter, spec, depth: int = 0) -> None:
    if depth > MAX_NESTING:
        raise FormatError("decoder: Sequence nested more than %d deep" % MAX_NESTING)
    if spec is None:
        w.u8(Dec.NONE)  # the seed has no code for "no decoder"
        return
    kind = spec.get("type")
    writer = WRITERS.get(kind)
    if writer is None:
        raise FormatError(f"decoder type {kind!r} is not supported by mtok")
    writer(w, spec, depth)
