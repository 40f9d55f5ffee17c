"""The bound on the encoders' pre-token caches.

Each thread that encodes with a tokenizer keeps a cache from pre-tokens
(words, CJK runs, ...) to their ids, so repeated text skips the model.
Each such cache uses at most the bound: it starts at 2.7 MB (resident
from the start), and each of its tables (short, long and very long
pre-tokens) grows with the distinct pre-tokens it is given, then
replaces older ones. The default is 64 MB;
``MTOK_CACHE_MB`` sets it for the process, :func:`set_piece_cache_mb` at
run time. 0 turns caching off (the ids are the same either way).
``Tokenizer.debug_info()`` reports the calling thread's cache size and
hit rate.
"""

from . import _native
from .errors import MtokError

_MB = 1 << 20


def piece_cache_mb() -> float:
    """The bound of each thread's cache per tokenizer, in MB."""
    try:
        return _native.piece_cache_bound() / _MB
    except ValueError as e:  # a bad MTOK_CACHE_MB
        raise MtokError(str(e)) from None


def set_piece_cache_mb(mb) -> None:
    """Sets the bound, in MB (an int or float >= 0; 0 turns caching off).
    A thread's cache is emptied and resized at its next encode."""
    if isinstance(mb, bool) or not isinstance(mb, (int, float)):
        raise TypeError(f"mb must be a number, not {type(mb).__name__}")
    if not mb >= 0 or mb > (1 << 20):
        raise ValueError(f"mb must be between 0 and 1048576, got {mb!r}")
    _native.set_piece_cache_bound(int(mb * _MB))
