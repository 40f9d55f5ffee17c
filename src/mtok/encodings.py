"""OpenAI encodings, offline: ``mtok.get_encoding("o200k_base")``. The one
home of the built-in encodings: ``mtok.tiktoken.registry`` re-exports this
module's names, as tiktoken's registry module holds them.

The rank files ship inside the package (src/mtok/data); the converted .mtok
bytes go to the on-disk cache (mtok.cache) so later loads only map a file.
"""

import functools
import lzma
import os
import threading

from . import _native
from .convert.openai_encodings import ENCODING_SPECS
from .errors import FormatError
from .tokenizer import Tokenizer

_DATA_DIR = os.path.join(os.path.dirname(__file__), "data")


# name -> Encoding, loaded once per process, as tiktoken's registry
# (pickling by name refers to these).
ENCODINGS = {}
_lock = threading.Lock()


def list_encoding_names() -> list:
    """Names of the built-in encodings."""
    return list(ENCODING_SPECS)


def _load(name: str) -> Tokenizer:
    """The encoding's tokenizer: its cached .mtok (mtok.cache) mapped in
    place, or built from the packaged rank file (and cached)."""
    from . import cache

    base, digest, pattern, specials, _ = ENCODING_SPECS[name]

    def build(_source_bytes=None) -> bytes:
        from .convert.tiktoken_file import parse_ranks, spec_from_ranks
        from .convert.export import export_mtok

        return export_mtok(spec_from_ranks(parse_ranks(_rank_file(base, digest), base), pattern, specials, name))

    folder = cache.cache_dir()
    if folder is None:
        return Tokenizer.from_bytes(build())
    key = _native.digest(f"encoding:{name}:{digest}:{cache.converter_fingerprint()}".encode())
    return cache.load(folder, cache.key_lookup(folder, key), build, source=f"built-in encoding {name}",
                      tokenizer=Tokenizer)


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
    import hashlib  # here: it loads OpenSSL

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
