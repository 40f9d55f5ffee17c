"""mtok under transformers and HF tokenizers' interface.

- :func:`patch_transformers` / :func:`unpatch_transformers`: transformers'
  fast tokenizers (AutoTokenizer...) run on mtok.
- :class:`TransformersBackend`: the ``tokenizers.Tokenizer`` interface on
  mtok, what a patched ``tok._tokenizer`` is.
- :class:`AddedToken`: an added token with HF's flags, for
  ``mtok.Tokenizer.add_tokens``.
"""

from .added import AddedToken

__all__ = ["AddedToken", "FallbackWarning", "TransformersBackend", "is_patched", "patch_transformers",
           "swap_backend", "unpatch_transformers"]

# mtok.tokenizer imports this package (for the HF surface), so what needs
# mtok.Tokenizer is imported on first use.
_LAZY = {"FallbackWarning": "backend", "TransformersBackend": "backend", "is_patched": "patch",
         "patch_transformers": "patch", "swap_backend": "patch", "unpatch_transformers": "patch"}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'mtok.hf' has no attribute {name!r}")
