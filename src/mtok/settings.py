"""Truncation and padding settings of a Tokenizer, with HF tokenizers'
names, defaults and errors.

A settings object never changes: enabling or disabling builds a new one, so
an encode running on another thread always sees one consistent state.
"""

from . import _native

_STRATEGIES = {"longest_first": 0, "only_first": 1, "only_second": 2}
_DIRECTIONS = {"right": 0, "left": 1}


class EncodeSettings:
    """Immutable truncation / padding parameters and their native form."""

    __slots__ = ("truncation", "padding", "split_special", "native")

    def __init__(self, truncation=None, padding=None, split_special=None):
        self.truncation = truncation
        self.padding = padding
        # HF's encode_special_tokens: None (off), or the ids of the added
        # tokens still matched in the text (the non-special ones).
        self.split_special = split_special
        self.native = None
        if truncation or padding or split_special is not None:
            cfg = _native.EncodeConfig()
            if truncation:
                cfg.set_truncation(truncation["max_length"], truncation["stride"],
                                   _STRATEGIES[truncation["strategy"]],
                                   _DIRECTIONS[truncation["direction"]])
            if padding:
                length = padding["length"]
                cfg.set_padding(_DIRECTIONS[padding["direction"]], padding["pad_id"],
                                padding["pad_type_id"], padding["pad_token"],
                                -1 if length is None else length, padding["pad_to_multiple_of"] or 0)
            if split_special is not None:
                cfg.set_split_special(list(split_special))
            self.native = cfg

    def with_truncation(self, truncation):
        return EncodeSettings(truncation, self.padding, self.split_special)

    def with_padding(self, padding):
        return EncodeSettings(self.truncation, padding, self.split_special)

    def with_split_special(self, split_special):
        return EncodeSettings(self.truncation, self.padding, split_special)


def truncation_params(max_length, stride, strategy, direction, added_tokens):
    """HF's truncation dict, validated as HF's enable_truncation does.
    `added_tokens` is what the post-processor adds to a single input."""
    if strategy not in _STRATEGIES:
        raise ValueError(f"Unknown `strategy`: `{strategy}`. Use one of `longest_first`, "
                         "`only_first`, or `only_second`")
    if direction not in _DIRECTIONS:
        raise ValueError(f"Unknown `direction`: `{direction}`. Use one of `left` or `right`.")
    max_length, stride = _size(max_length, "max_length"), _size(stride, "stride")
    # HF subtracts without a check; a max_length below the added tokens wraps around.
    effective = max_length - added_tokens if max_length >= added_tokens else 2**64 + max_length - added_tokens
    if effective < stride:
        raise ValueError(
            f"tokenizer stride set to {stride}, which is greater than or equal to its effective max "
            f"length of {effective} (= {max_length} original max length - {added_tokens} added "
            "special tokens), ")
    return {"max_length": max_length, "stride": stride, "strategy": strategy, "direction": direction}


def padding_params(direction, pad_id, pad_type_id, pad_token, length, pad_to_multiple_of):
    """HF's padding dict, validated as HF's enable_padding does."""
    if direction not in _DIRECTIONS:
        raise ValueError(f"Unknown `direction`: `{direction}`. Use one of `left` or `right`")
    if not isinstance(pad_token, str):
        raise TypeError("pad_token must be a str")
    return {
        "length": None if length is None else _size(length, "length"),
        "pad_to_multiple_of": None if pad_to_multiple_of is None else _size(pad_to_multiple_of, "pad_to_multiple_of"),
        "pad_id": _size(pad_id, "pad_id", 2**32),
        "pad_token": pad_token,
        "pad_type_id": _size(pad_type_id, "pad_type_id", 2**32),
        "direction": direction,
    }


def _size(value, name, limit=2**64):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= value < limit:
        raise OverflowError(f"{name} must be between 0 and {limit - 1}, got {value}")
    return value
