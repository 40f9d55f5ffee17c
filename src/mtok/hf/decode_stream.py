"""``tokenizers.decoders.DecodeStream`` while patched: a stream that steps
an mtok backend with mtok's DecodeStream and any other tokenizer with HF's,
so vLLM's ``DecodeStream(...).step(tok._tokenizer, id)`` works on both."""


def make_decode_stream(hf_stream_class):
    """The patched class over HF's (None when tokenizers has none)."""
    from ..decode_stream import DecodeStream as MtokStream
    from .backend import TransformersBackend

    class DecodeStream:
        """HF's DecodeStream(ids=None, skip_special_tokens=False); the
        implementation is chosen at the first step, by the tokenizer."""

        __slots__ = ("_ids", "_skip", "_stream")

        def __init__(self, ids=None, skip_special_tokens=False):
            self._ids = list(ids) if ids is not None else None
            self._skip = bool(skip_special_tokens)
            self._stream = None

        def step(self, tokenizer, id):
            if self._stream is None:
                on_mtok = isinstance(tokenizer, TransformersBackend) and tokenizer._hf is None
                if on_mtok:
                    self._stream = MtokStream(self._ids, skip_special_tokens=self._skip)
                elif hf_stream_class is None:
                    raise TypeError("this tokenizers version has no DecodeStream; it streams only "
                                    "tokenizers on mtok")
                elif self._ids is None:
                    self._stream = hf_stream_class(skip_special_tokens=self._skip)
                else:
                    self._stream = hf_stream_class(ids=self._ids, skip_special_tokens=self._skip)
            if isinstance(tokenizer, TransformersBackend):
                tokenizer = tokenizer._tok if tokenizer._hf is None else tokenizer._hf
            return self._stream.step(tokenizer, id)

        def __repr__(self):
            return f"<DecodeStream skip_special_tokens={self._skip} (mtok.patch_transformers)>"

    DecodeStream.__qualname__ = DecodeStream.__name__ = "DecodeStream"
    return DecodeStream
