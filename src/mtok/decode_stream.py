"""Streaming decode for generation loops, as HF's
``tokenizers.decoders.DecodeStream``."""

from . import _native


class DecodeStream:
    """Feeds ids one step at a time and returns only newly completed text.

    A step that ends inside a character (a byte-fallback or byte-level token
    that is half of a UTF-8 sequence) returns None; the text comes with the
    step that completes it. `ids` are context already seen, never returned.
    Use one stream per generation; a stream is not shared between threads.
    """

    def __init__(self, ids=None, skip_special_tokens: bool = False):
        self._native = _native.DecodeStream(bool(skip_special_tokens), [int(i) for i in ids or ()])

    def step(self, tokenizer, id):
        """Appends an id (or a list of ids) and returns the text it completes,
        or None when no complete text is available yet."""
        ids = [int(id)] if isinstance(id, int) else [int(i) for i in id]
        return self._native.step(tokenizer._native, ids)
