"""Importers: every tokenizer format becomes one spec, then .mtok bytes.

`to_mtok_bytes(path)` is the entry point; the format is detected from the
file's content, not its name.
"""

import os

from ..errors import FormatError
from ..format.writer import write_mtok
from .detect import detect_format
from .tiktoken_file import load_tiktoken_file
from .tokenizer_json import load_tokenizer_json

# Formats that hold a spec to convert (others load directly).
SPEC_LOADERS = {
    "tokenizer.json": load_tokenizer_json,
    "tiktoken": load_tiktoken_file,
}


def load_spec(path: str, *, pattern: str = None) -> dict:
    """Reads any supported source file (or a folder holding one) as a spec."""
    path = resolve_source(path)
    kind = detect_format(path)
    if kind == "tiktoken":
        return load_tiktoken_file(path, pattern=pattern)
    loader = SPEC_LOADERS.get(kind)
    if loader is None:
        raise FormatError(f"{path}: {kind} files cannot be converted by this build of mtok")
    return loader(path)


def to_mtok_bytes(path: str, *, pattern: str = None) -> bytes:
    return write_mtok(load_spec(path, pattern=pattern))


# File names tried, in order, when a folder is given.
FOLDER_FILES = ("tokenizer.mtok", "tokenizer.json", "tokenizer.model", "spiece.model", "tokenizer.txt")


def resolve_source(path: str) -> str:
    """A folder resolves to the first tokenizer file found in it."""
    if os.path.isdir(path):
        for name in FOLDER_FILES:
            candidate = os.path.join(path, name)
            if os.path.isfile(candidate):
                return candidate
        raise FormatError(f"{path}: no tokenizer file in this folder (looked for {', '.join(FOLDER_FILES)})")
    if not os.path.exists(path):
        raise FormatError(f"{path}: no such file")
    return path
