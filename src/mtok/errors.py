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
