"""Writes the normalizer section from an HF-style normalizer spec."""

from ..errors import FormatError
from .binary import ByteWriter
from .codes import MAX_NESTING, Norm
from .patterns import parse_pattern

_FORMS = {"NFC": 0, "NFD": 1, "NFKC": 2, "NFKD": 3}


def _unicode_form(w, spec, depth):
    w.u8(Norm.UNICODE_FORM)
    w.u8(_FORMS[spec["type"]])


def _sequence(w, spec, depth):
    parts = spec.get("normalizers", [])
    w.u8(Norm.SEQUENCE)
    w.u32(len(parts))
    for p in parts:
        write_normalizer(w, p, depth + 1)


def _prepend(w, spec, depth):
    w.u8(Norm.PREPEND)
    w.str(spec["prepend"], "Prepend string")


def _replace(w, spec, depth):
    is_regex, pattern = parse_pattern(spec.get("pattern"), "Replace normalizer")
    w.u8(Norm.REPLACE_REGEX if is_regex else Norm.REPLACE)
    w.str(pattern, "Replace pattern")
    w.str(spec.get("content", ""), "Replace content")


def _bert(w, spec, depth):
    lowercase = bool(spec.get("lowercase", True))
    strip = spec.get("strip_accents")
    strip = lowercase if strip is None else bool(strip)  # HF: None follows lowercase
    # The seed's code 5 is exact without accent stripping; with it, the seed
    # uses a per-code-point NFD table (code 7), so mtok writes its own code.
    w.u8(Norm.BERT_EXACT if strip else Norm.BERT)
    w.flag(spec.get("clean_text", True))
    w.flag(spec.get("handle_chinese_chars", True))
    w.flag(strip)
    w.flag(lowercase)


def _strip(w, spec, depth):
    w.u8(Norm.STRIP)
    w.flag(spec.get("strip_left", True))
    w.flag(spec.get("strip_right", True))


def _lowercase(w, spec, depth):
    w.u8(Norm.LOWERCASE)


def _strip_accents(w, spec, depth):
    w.u8(Norm.STRIP_ACCENTS)


def _precompiled(w, spec, depth):
    import base64

    charsmap = spec.get("precompiled_charsmap") or ""
    try:
        blob = base64.b64decode(charsmap, validate=True) if isinstance(charsmap, str) else bytes(charsmap)
    except ValueError as e:
        raise FormatError(f"Precompiled normalizer: precompiled_charsmap is not base64 ({e})") from None
    w.u8(Norm.PRECOMPILED)
    w.u8(1 if spec.get("mtok_sentencepiece") else 0)
    w.long_str(blob)


def _sentencepiece(w, spec, depth):
    flags = 0
    for bit, key in enumerate(["add_dummy_prefix", "remove_extra_whitespaces", "escape_whitespaces",
                               "treat_whitespace_as_suffix"]):
        if spec.get(key):
            flags |= 1 << bit
    w.u8(Norm.SPM_WHITESPACE)
    w.u8(flags)
    w.long_str(bytes(spec.get("precompiled_charsmap") or b""))
    user = spec.get("user_defined_symbols") or []
    w.u32(len(user))
    for s in user:
        w.str(s, "user-defined symbol")


# type name -> writer(w, spec, depth). Each entry writes the type byte and
# the fields; docs/format.md lists the layouts.
WRITERS = {
    "NFC": _unicode_form,
    "NFD": _unicode_form,
    "NFKC": _unicode_form,
    "NFKD": _unicode_form,
    "Sequence": _sequence,
    "Prepend": _prepend,
    "Replace": _replace,
    "BertNormalizer": _bert,
    "Strip": _strip,
    "Lowercase": _lowercase,
    "StripAccents": _strip_accents,
    "Precompiled": _precompiled,
    "SentencePiece": _sentencepiece,  # mtok's own: a .model file's normalizer
}


def write_normalizer(w: ByteWriter, spec, depth: int = 0) -> None:
    if depth > MAX_NESTING:
        raise FormatError("normalizer: Sequence nested more than %d deep" % MAX_NESTING)
    if spec is None:
        w.u8(Norm.NONE)
        return
    kind = spec.get("type")
    writer = WRITERS.get(kind)
    if writer is None:
        raise FormatError(f"normalizer type {kind!r} is not supported by mtok")
    writer(w, spec, depth)
