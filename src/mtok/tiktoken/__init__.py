"""A drop-in for ``tiktoken``: ``import mtok.tiktoken as tiktoken``.

Same names, arguments, results and errors as tiktoken's public API, on the
mtok core; every built-in encoding loads offline from the package.
"""

from .core import Encoding
from .model import encoding_for_model, encoding_name_for_model
from .registry import get_encoding, list_encoding_names

__all__ = ["Encoding", "get_encoding", "list_encoding_names", "encoding_for_model",
           "encoding_name_for_model"]
