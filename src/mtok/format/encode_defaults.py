"""The truncation and padding a tokenizer.json switches on, written as the
TRUN and PADS trailer sections (docs/format.md §8).

HF tokenizers applies a file's settings on every encode of a tokenizer
loaded from it; storing them lets a .mtok file do the same. Fields are read
with HF's rules (serde): a missing truncation direction is "Right", a missing
pad_to_multiple_of is None, everything else is required.
"""

from ..errors import FormatError
from .binary import ByteWriter
from .codes import Tag

STRATEGIES = {"LongestFirst": 0, "OnlyFirst": 1, "OnlySecond": 2}
DIRECTIONS = {"Right": 0, "Left": 1}
PAD_FIXED, PAD_MULTIPLE = 1, 2  # PADS flag bits


def _choice(value, names, what):
    if value not in names:
        raise FormatError(f"tokenizer.json {what}: {value!r} is not one of {', '.join(names)}")
    return names[value]


def _int(params, key, what, limit):
    value = params.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise FormatError(f"tokenizer.json {what}.{key}: {value!r} is not an integer in [0, {limit})")
    return value


def truncation_payload(params):
    """TRUN payload of a tokenizer.json "truncation" value, or None when off."""
    if params is None:
        return None
    if not isinstance(params, dict):
        raise FormatError(f"tokenizer.json truncation: expected an object or null, got {params!r}")
    w = ByteWriter()
    w.u64(_int(params, "max_length", "truncation", 2**64))
    w.u64(_int(params, "stride", "truncation", 2**64))
    w.u8(_choice(params.get("strategy"), STRATEGIES, "truncation.strategy"))
    w.u8(_choice(params.get("direction", "Right"), DIRECTIONS, "truncation.direction"))
    return w.getvalue()


def padding_payload(params):
    """PADS payload of a tokenizer.json "padding" value, or None when off."""
    if params is None:
        return None
    if not isinstance(params, dict):
        raise FormatError(f"tokenizer.json padding: expected an object or null, got {params!r}")
    strategy = params.get("strategy")
    flags, length = 0, 0
    if isinstance(strategy, dict) and list(strategy) == ["Fixed"]:
        flags, length = PAD_FIXED, _int(strategy, "Fixed", "padding.strategy", 2**64)
    elif strategy != "BatchLongest":
        raise FormatError(f"tokenizer.json padding.strategy: {strategy!r} is neither "
                          "\"BatchLongest\" nor {\"Fixed\": n}")
    multiple = 0
    if params.get("pad_to_multiple_of") is not None:
        flags |= PAD_MULTIPLE
        multiple = _int(params, "pad_to_multiple_of", "padding", 2**64)
    token = params.get("pad_token")
    if not isinstance(token, str):
        raise FormatError(f"tokenizer.json padding.pad_token: {token!r} is not a string")
    w = ByteWriter()
    w.u8(_choice(params.get("direction"), DIRECTIONS, "padding.direction"))
    w.u8(flags)
    w.u64(length)
    w.u64(multiple)
    w.u32(_int(params, "pad_id", "padding", 2**32))
    w.u32(_int(params, "pad_type_id", "padding", 2**32))
    w.str(token, "padding.pad_token")
    return w.getvalue()


def encode_default_sections(spec):
    """(tag, flags, payload) of the TRUN / PADS sections a spec needs. Both
    are required sections: a reader that ignored them would encode with
    different ids than the source."""
    out = []
    for tag, payload in ((Tag.TRUNCATION, truncation_payload(spec.get("truncation"))),
                         (Tag.PADDING, padding_payload(spec.get("padding")))):
        if payload is not None:
            out.append((tag, 1, payload))
    return out
