"""mtok: exact, fast tokenizers with one C++ core.

Load any tokenizer file with ``mtok.Tokenizer.from_file(path)``; use OpenAI
encodings offline with ``mtok.get_encoding(name)``.
"""

from .errors import CacheWarning, EncodeError, FormatError, ModelNotFoundError, MtokError, TemplateError
from ._native import Encoding
from .decode_stream import DecodeStream
from .tokenizer import Tokenizer
from .encodings import get_encoding, list_encoding_names
from .piece_cache import piece_cache_mb, set_piece_cache_mb

__all__ = [
    "Tokenizer",
    "Encoding",
    "DecodeStream",
    "get_encoding",
    "list_encoding_names",
    "piece_cache_mb",
    "set_piece_cache_mb",
    "MtokError",
    "FormatError",
    "EncodeError",
    "TemplateError",
    "ModelNotFoundError",
    "CacheWarning",
    "patch_transformers",
    "unpatch_transformers",
]
__version__ = "0.1.0"


def patch_transformers() -> None:
    """Runs transformers' fast tokenizers (AutoTokenizer, vLLM, SGLang) on
    mtok with unchanged results; see :mod:`mtok.hf.patch`."""
    from .hf import patch_transformers as patch

    patch()


def unpatch_transformers() -> None:
    """Undoes :func:`patch_transformers`."""
    from .hf import unpatch_transformers as unpatch

    unpatch()


def __getattr__(name):
    # mtok.corpus (training-data shards) and mtok.tiktoken load on first use.
    if name in ("corpus", "tiktoken"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'mtok' has no attribute {name!r}")
