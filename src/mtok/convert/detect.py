"""Which tokenizer format a file holds, judged by its content."""

import re

from ..errors import FormatError
from .tiktoken_file import looks_like_tiktoken

_MNN_HEADER = re.compile(rb"^430 ([0-9]+)\n")


def detect_format(path: str) -> str:
    """One of "mtok", "mnn-txt", "tokenizer.json", "sentencepiece", "tiktoken"."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError as e:
        raise FormatError(f"{path}: {e.strerror}") from None
    m = _MNN_HEADER.match(head)
    if m:
        return "mtok" if m.group(1) == b"4" else "mnn-txt"
    stripped = head.lstrip()
    if stripped.startswith(b"{"):
        return "tokenizer.json"
    if looks_like_tiktoken(head):
        return "tiktoken"
    # A SentencePiece ModelProto starts with field 1 (pieces), length-delimited.
    if head[:1] == b"\x0a":
        return "sentencepiece"
    raise FormatError(f"{path}: not a tokenizer file mtok recognises "
                      "(.mtok, MNN .txt, tokenizer.json, SentencePiece .model, .tiktoken)")
