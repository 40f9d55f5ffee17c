"""The mtok error hierarchy.

Every error mtok raises on purpose is an :class:`MtokError`, so callers can
catch one class. The native core reports failures as a status that the
bindings map onto these classes.
"""


class MtokError(Exception):
    """Base class of every error raised by mtok."""


class FormatError(MtokError):
    """A tokenizer file or spec is malformed, truncated or unsupported.

    The message names the file section or field and, for binary files, the
    byte offset of the problem.
    """


class EncodeError(MtokError):
    """The input cannot be encoded (for example invalid UTF-8, or a special
    token that the caller disallowed)."""


class TemplateError(MtokError):
    """A chat template failed to compile or render. The message names the
    template, the line and the cause."""


class ModelNotFoundError(MtokError):
    """``Tokenizer.from_pretrained`` found no such folder or cached model, or
    no tokenizer file in it. The message names the places looked."""


class CacheWarning(UserWarning):
    """The on-disk cache of converted tokenizers cannot be used (a
    read-only, full or missing folder); the tokenizer still loads."""
