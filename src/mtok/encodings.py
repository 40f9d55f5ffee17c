"""OpenAI encodings, offline: ``mtok.get_encoding("o200k_base")``. The one
home of the built-in encodings: ``mtok.tiktoken.registry`` re-exports this
module's names, as tiktoken's registry module holds them.

The rank files ship inside the package (src/mtok/data); the converted .mtok
bytes are cached per user so later loads only map a file.
"""

import functools
import hashlib
import lzma
import os
import threading

from .convert.openai_encodings import ENCODING_SPECS
from .errors import FormatError
from .tokenizer import Tokenizer

_DATA_DIR = os.path.join(os.path.dirname(__file__), "data")
_PACKAGE_DIR = os.path.dirname(__file__)


@functools.lru_cache(maxsize=None)
def _writer_fingerprint() -> str:
    """Hash of the code that turns a rank file into .mtok bytes: a cached
    file written by another version of that code is never reused. The
    native module computes the acceleration sections, so its build counts
    too (by size and time: hashing it would cost a read of several MB)."""
    from . import _native

    h = hashlib.sha256()
    st = os.stat(_native.__file__)
    h.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
    folders = [os.path.join(_PACKAGE_DIR, "format")]
    files = [os.path.join(_PACKAGE_DIR, "convert", n) for n in ("tiktoken_file.py", "openai_encodings.py", "export.py")]
    for folder in folders:
        files += sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".py"))
    for path in files:
        with open(path, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


# name -> Encoding, loaded once per process, as tiktoken's registry
# (pickling by name refers to these).
ENCODINGS = {}
_lock = threading.Lock()


def list_encoding_names() -> list:
    """Names of the built-in encodings."""
    return list(ENCODING_SPECS)


def _cache_dir() -> str:
    base = os.environ.get("MTOK_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "mtok")
    return base


def _load(name: str) -> Tokenizer:
    """The encoding's tokenizer: the cached .mtok mapped in place, or built
    from the packaged rank file (and cached) when there is no valid cache."""
    base, digest, pattern, specials, _ = ENCODING_SPECS[name]
    cache = os.path.join(_cache_dir(), f"{name}-{digest[:16]}-{_writer_fingerprint()}.mtok")
    try:
        return Tokenizer.from_file(cache)  # a damaged cache file is rebuilt, never trusted
    except FormatError:
        pass
    raw = _rank_file(base, digest)
    from .convert.tiktoken_file import parse_ranks, spec_from_ranks
    from .convert.export import export_mtok

    data = export_mtok(spec_from_ranks(parse_ranks(raw, base), pattern, specials, name))
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        tmp = f"{cache}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, cache)
    except OSError:
        pass  # a read-only home only costs the conversion next time
    return Tokenizer.from_bytes(data)


def _builtin_encoding(name: str):
    """A new tiktoken-style Encoding for a built-in encoding name."""
    # mtok.tiktoken.core refers back to ENCODINGS and get_encoding to pickle
    # built-in encodings by name (as tiktoken does); both sides import
    # lazily, inside functions, so neither module needs the other to load.
    from .tiktoken.core import Encoding

    base, digest, pattern, specials, _ = ENCODING_SPECS[name]
    return Encoding._from_tokenizer(name, _load(name), pattern,
                                    dict(specials), functools.partial(_ranks, base, digest))


def _ranks(base: str, digest: str) -> dict:
    """The mergeable ranks of a packaged rank file."""
    from .convert.tiktoken_file import parse_ranks

    return parse_ranks(_rank_file(base, digest), base)


def _rank_file(base: str, digest: str) -> bytes:
    with lzma.open(os.path.join(_DATA_DIR, base + ".tiktoken.xz")) as f:
        raw = f.read()
    if hashlib.sha256(raw).hexdigest() != digest:
        raise FormatError(f"the packaged rank file {base} is corrupt (sha256 mismatch)")
    return raw


def get_encoding(encoding_name: str):
    """A built-in OpenAI encoding (gpt2, r50k_base, p50k_base, p50k_edit,
    cl100k_base, o200k_base, o200k_harmony) with tiktoken's API, loaded once
    per process; ValueError when unknown. ``mtok.tiktoken.get_encoding`` is
    this function."""
    if not isinstance(encoding_name, str):
        raise ValueError(f"Expected a string in get_encoding, got {type(encoding_name)}")
    enc = ENCODINGS.get(encoding_name)
    if enc is not None:
        return enc
    with _lock:
        if encoding_name in ENCODINGS:
            return ENCODINGS[encoding_name]
        if encoding_name not in ENCODING_SPECS:
            raise ValueError(f"Unknown encoding {encoding_name}.\n"
                             f"Built-in encodings: {list_encoding_names()}")
        enc = ENCODINGS[encoding_name] = _builtin_encoding(encoding_name)
        return enc
