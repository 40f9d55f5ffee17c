"""tiktoken's registry module: the built-in encodings, whose one home is
mtok.encodings."""

from ..encodings import ENCODINGS, get_encoding, list_encoding_names

__all__ = ["ENCODINGS", "get_encoding", "list_encoding_names"]
