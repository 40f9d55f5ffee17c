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


def _metaspace(w, spec, depth):
    from .pre_tokenizers import metaspace_options

    replacement, scheme, _ = metaspace_options(spec, "Metaspace decoder")
    # Decoding only asks whether a prefix was prepended: "first" decodes as
    # "always", so the seed's add_prefix_space flag says it all.
    w.u8(Dec.METASPACE)
    w.str(replacement, "Metaspace replacement")
    w.flag(scheme != 2)


def _wordpiece(w, spec, depth):
    w.u8(Dec.WORDPIECE)
    w.str(spec.get("prefix", "##"), "WordPiece prefix")
    w.flag(spec.get("cleanup", True))


def _ctc(w, spec, depth):
    w.u8(Dec.CTC)
    w.str(spec.get("pad_token", "<pad>"), "CTC pad_token")
    w.str(spec.get("word_delimiter_token", "|"), "CTC word_delimiter_token")
    w.flag(spec.get("cleanup", True))


def _bpe_decoder(w, spec, depth):
    w.u8(Dec.BPE_SUFFIX)
    w.str(spec.get("suffix", "</w>"), "BPEDecoder suffix")


def _sentencepiece(w, spec, depth):
    flags = 0
    for bit, key in enumerate(["add_dummy_prefix", "remove_extra_whitespaces", "byte_fallback"]):
        if spec.get(key):
            flags |= 1 << bit
    w.u8(Dec.SENTENCEPIECE)
    w.u8(flags)
    w.str(spec["unk_piece"], "unk piece")
    w.str(spec["unk_surface"], "unk surface")
    control = spec.get("control") or []
    w.u32(len(control))
    for c in control:
        w.str(c, "control piece")


WRITERS = {
    "ByteLevel": _simple(Dec.BYTE_LEVEL),
    "ByteFallback": _simple(Dec.BYTE_FALLBACK),
    "Fuse": _simple(Dec.FUSE),
    "Replace": _replace,
    "Strip": _strip,
    "Sequence": _sequence,
    "Metaspace": _metaspace,
    "WordPiece": _wordpiece,
    "CTC": _ctc,
    "BPEDecoder": _bpe_decoder,
    "SentencePiece": _sentencepiece,  # mtok's own: a .model file's decoder
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
