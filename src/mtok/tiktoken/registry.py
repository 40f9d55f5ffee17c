"""The built-in encodings, loaded once per process and offline."""

import threading

from ..convert.openai_encodings import ENCODINGS as _SPECS

ENCODINGS = {}  # name -> Encoding, as tiktoken's registry (pickle refers to these)
_lock = threading.Lock()


def list_encoding_names() -> list:
    """Names of the built-in encodings."""
    return list(_SPECS)


def get_encoding(encoding_name: str):
    """A built-in encoding by name (gpt2, r50k_base, p50k_base, p50k_edit,
    cl100k_base, o200k_base, o200k_harmony); ValueError when unknown."""
    if not isinstance(encoding_name, str):
        raise ValueError(f"Expected a string in get_encoding, got {type(encoding_name)}")
    enc = ENCODINGS.get(encoding_name)
    if enc is not None:
        return enc
    with _lock:
        if encoding_name in ENCODINGS:
            return ENCODINGS[encoding_name]
        if encoding_name not in _SPECS:
            raise ValueError(f"Unknown encoding {encoding_name}.\n"
                             f"Built-in encodings: {list_encoding_names()}")
        from ..encodings import builtin_encoding

        enc = ENCODINGS[encoding_name] = builtin_encoding(encoding_name)
        return enc
