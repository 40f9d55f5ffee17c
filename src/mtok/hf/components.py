"""Read-only views of a tokenizer's components, as HF tokenizers exposes
them (``tokenizer.normalizer``, ``.pre_tokenizer``, ``.model``,
``.post_processor``, ``.decoder``).

A view shows the component's tokenizer.json fields as attributes
(``pre_tokenizer.replacement``, ``model.unk_token``...) and its ``type``;
the model view's class is named after the model (``BPE``, ``Unigram``,
``WordPiece``, ``WordLevel``), since transformers tests
``type(tokenizer.model).__name__``. The decoder view decodes token strings
with the native decoder. Components cannot be changed through a view: the
compiled tokenizer is immutable (see ``Tokenizer.add_tokens``).
"""

import json


class ComponentView:
    """One component's tokenizer.json object, read-only.

    `methods`, when given, returns the HF component built from the same
    tokenizer.json: methods the view lacks (``normalize_str``,
    ``pre_tokenize_str``, ``tokenize``...) run on it, so their results are
    HF's own."""

    __slots__ = ("_fields", "_methods")

    def __init__(self, fields: dict, methods=None):
        object.__setattr__(self, "_fields", dict(fields))
        object.__setattr__(self, "_methods", methods)

    @property
    def type(self) -> str:
        return self._fields.get("type", type(self).__name__)

    def __getattr__(self, name):
        fields = object.__getattribute__(self, "_fields")
        if name in fields:
            return fields[name]
        methods = object.__getattribute__(self, "_methods")
        if methods is not None and not name.startswith("_"):
            return getattr(methods(), name)
        raise AttributeError(f"{type(self).__name__} view has no field {name!r}")

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} views are read-only: the compiled tokenizer is immutable")

    def __getstate__(self) -> bytes:
        """The component as tokenizer.json bytes (as HF's components give)."""
        return json.dumps(self._fields, ensure_ascii=False).encode()

    def __repr__(self) -> str:
        return f"<mtok {type(self).__name__} view {self.type}>"


class Normalizer(ComponentView):
    __slots__ = ()


class PreTokenizer(ComponentView):
    __slots__ = ()


class PostProcessor(ComponentView):
    __slots__ = ()


class Model(ComponentView):
    __slots__ = ()


class BPE(Model):
    __slots__ = ()


class Unigram(Model):
    __slots__ = ()


class WordPiece(Model):
    __slots__ = ()


class WordLevel(Model):
    __slots__ = ()


_MODELS = {cls.__name__: cls for cls in (BPE, Unigram, WordPiece, WordLevel)}


class Decoder(ComponentView):
    """The decoder view; ``decode(tokens)`` runs the native decoder."""

    __slots__ = ("_native",)

    def __init__(self, fields: dict, native, methods=None):
        super().__init__(fields, methods)
        object.__setattr__(self, "_native", native)

    def decode(self, tokens) -> str:
        """Text of token strings, as HF's ``decoder.decode(tokens)``."""
        return self._native.decode_tokens([str(t) for t in tokens])


def view(kind, fields, native=None, methods=None):
    """The view of a spec component (None when the spec has none)."""
    if fields is None:
        return None
    if kind is Decoder:
        return Decoder(fields, native, methods)
    if kind is Model:
        return _MODELS.get(fields.get("type"), Model)(fields, methods)
    return kind(fields, methods)
