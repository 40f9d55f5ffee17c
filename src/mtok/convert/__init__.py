"""Importers: every tokenizer format becomes one spec, then .mtok bytes.

`to_mtok_bytes(path)` is the entry point; the format is detected from the
file's content, not its name.
"""

import importlib
import os

from ..errors import FormatError
from .detect import detect_format
from .malformed import malformed_as_format_error

# The importer of each format that holds a spec to convert, as (module,
# function): imported on first use, so `import mtok` stays fast (the
# SentencePiece importer alone pulls in protobuf).
LOADERS = {
    "tokenizer.json": ("tokenizer_json", "load_tokenizer_json"),
    "tiktoken": ("tiktoken_file", "load_tiktoken_file"),
    "mnn-txt": ("legacy.mnn_txt", "load_mnn_txt"),
    "sentencepiece": ("sentencepiece", "load_sentencepiece"),
}


def _loader(kind: str):
    module, function = LOADERS[kind]
    return getattr(importlib.import_module(f".{module}", __name__), function)


def load_spec(path: str, *, pattern: str = None, add_bos: bool = False, add_eos: bool = False,
              native: bool = False, **legacy_options) -> dict:
    """Reads any supported source file (or a folder holding one) as a spec.

    With `native`, the model of a tokenizer.json, .model or .tiktoken file
    may come already written by the native readers (cpp/src/convert/) as
    spec["model"]["mtok_section"]: such a spec is for the .mtok writer only.

    `add_bos`/`add_eos` apply to SentencePiece .model files (which record no
    post-processor): encode() then adds them, as
    SentencePieceProcessor.encode(..., add_bos=True, add_eos=True) does.

    `legacy_options` (normalizer, ignore_merges, lowercase, strip_accents,
    sp_model) supply what an MNN tokenizer.txt does not record; see
    docs/legacy_txt.md."""
    path = resolve_source(path)
    return _load_spec(path, detect_format(path), pattern, add_bos, add_eos, native, legacy_options)


def _load_spec(path, kind, pattern, add_bos, add_eos, native, legacy_options) -> dict:
    given = sorted(k for k, v in legacy_options.items() if v is not None)
    if kind == "sentencepiece" and not given:
        return _loader(kind)(path, add_bos=add_bos, add_eos=add_eos, native=native)
    if add_bos or add_eos:
        raise FormatError(f"{path}: add_bos/add_eos apply only to SentencePiece .model files")
    if kind == "mnn-txt":
        return _loader(kind)(path, pattern=pattern, **legacy_options)
    if given:
        raise FormatError(f"{path}: option(s) {', '.join(given)} apply only to MNN tokenizer.txt files")
    if kind == "tiktoken":
        return _loader(kind)(path, pattern=pattern, native=native)
    if kind not in LOADERS:
        raise FormatError(f"{path}: {kind} files cannot be converted by this build of mtok")
    return _loader(kind)(path, native=native)


def to_mtok_bytes(path: str, *, pattern: str = None, add_bos: bool = False, add_eos: bool = False,
                  **legacy_options) -> bytes:
    """The .mtok file converted from a source file (the options are
    :meth:`mtok.Tokenizer.from_file`'s and the MNN .txt readers')."""
    return bytes(to_mtok_buffer(path, pattern=pattern, add_bos=add_bos, add_eos=add_eos, **legacy_options))


def to_mtok_buffer(path: str, *, pattern: str = None, add_bos: bool = False, add_eos: bool = False,
                   source_bytes: bytes = None, **legacy_options):
    """:func:`to_mtok_bytes`'s file as bytes or, from the native
    SentencePiece writer, a read-only memoryview of its buffer: the cache
    writes and digests it without a copy. `source_bytes`: the file's bytes
    when the caller has read them (the SentencePiece writer then does not
    read it again)."""
    with malformed_as_format_error(path):
        path = resolve_source(path)
        kind = detect_format(path)
        if kind == "sentencepiece" and not (add_bos or add_eos) and \
                all(v is None for v in legacy_options.values()):
            data = _sp_model_file(path, source_bytes)
            if data is not None:
                return data
        return _python_buffer(path, kind, pattern, add_bos, add_eos, legacy_options)


def python_mtok_buffer(path: str, kind: str, *, pattern: str = None, add_bos: bool = False,
                       add_eos: bool = False, **legacy_options):
    """:func:`to_mtok_buffer`'s file by the Python importer and writer
    alone, for a source already resolved and detected as `kind` (a .model
    the native writer declined is not offered to it again)."""
    with malformed_as_format_error(path):
        return _python_buffer(path, kind, pattern, add_bos, add_eos, legacy_options)


def _python_buffer(path, kind, pattern, add_bos, add_eos, legacy_options):
    from .export import export_mtok

    return export_mtok(_load_spec(path, kind, pattern, add_bos, add_eos, True, legacy_options))


class NativeDeclined(Exception):
    """The native writer left a file to the Python importer."""


def native_sp_buffer(path: str, source_bytes: bytes = None):
    """The .mtok buffer of a SentencePiece .model with default options, by
    the native writer alone (see _sp_model_file); NativeDeclined when it
    leaves the file to the Python importer (:func:`python_mtok_buffer`)."""
    with malformed_as_format_error(path):
        data = _sp_model_file(path, source_bytes)
    if data is None:
        raise NativeDeclined(path)
    return data


def _sp_model_file(path, data: bytes = None):
    """The whole .mtok file of a SentencePiece .model with default options
    (its bytes `data`, else read here), written by the native core
    (cpp/src/convert/sp_file.cc: the bytes mtok.format writes for its spec),
    or None when it declines the file."""
    from .. import _native

    if data is None:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise FormatError(f"{path}: {e.strerror}") from None
    return _native.sp_model_file(data)


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
