"""mtok.patch_transformers() / mtok.unpatch_transformers().

While patched, every fast tokenizer transformers builds (AutoTokenizer,
from_pretrained of any class, or a direct construction) runs on a
:class:`~mtok.hf.backend.TransformersBackend`: the patch wraps the fast base
class's ``__init__`` (``TokenizersBackend`` in transformers 5, where
``PreTrainedTokenizerFast`` is an alias; ``PreTrainedTokenizerFast`` in
4.x) and, once transformers has configured its HF backend, swaps in the
mtok one built from its tokenizer.json. A tokenizer mtok cannot reproduce
exactly keeps its HF backend, with one FallbackWarning naming the reason.

The batch path builds BatchEncodings from native columns (fast_call.py),
and ``tokenizers.decoders.DecodeStream`` accepts both
backends (vLLM streams with it; patch before vLLM imports it).
"""

import functools
import threading
import warnings

from ..errors import MtokError
from .backend import FallbackWarning, TransformersBackend

_lock = threading.Lock()
_saved = []  # (owner, name, value before the patch, whether the owner had its own)


def _fast_base():
    """(the fast tokenizer base class, transformers major version)."""
    try:
        from transformers.tokenization_utils_tokenizers import TokenizersBackend

        return TokenizersBackend, 5
    except ImportError:
        pass
    try:
        from transformers.tokenization_utils_fast import PreTrainedTokenizerFast

        return PreTrainedTokenizerFast, 4
    except ImportError:
        raise ImportError("mtok.patch_transformers needs transformers 4.45 or later") from None


def is_patched() -> bool:
    return bool(_saved)


def _set(owner, name, value):
    own = vars(owner)
    _saved.append((owner, name, own.get(name), name in own))
    setattr(owner, name, value)


def patch_transformers() -> None:
    """Runs transformers' fast tokenizers on mtok (see the module doc).
    Applying it again does nothing; :func:`unpatch_transformers` undoes it."""
    with _lock:
        if _saved:
            return
        base, major = _fast_base()
        _set(base, "__init__", _wrap_init(base.__init__))
        from . import fast_call

        if major >= 5:
            _set(base, "_encode_plus", fast_call.make_encode_plus(base._encode_plus))
        else:
            _set(base, "_batch_encode_plus", fast_call.make_batch_encode_plus(base._batch_encode_plus))
        import tokenizers.decoders

        from .decode_stream import make_decode_stream

        # tokenizers before 0.21 has no DecodeStream: the patch adds one.
        hf_stream = getattr(tokenizers.decoders, "DecodeStream", None)
        _set(tokenizers.decoders, "DecodeStream", make_decode_stream(hf_stream))


def unpatch_transformers() -> None:
    """Restores what :func:`patch_transformers` replaced. Tokenizers built
    while patched keep their mtok backend (it has the whole interface)."""
    with _lock:
        while _saved:
            owner, name, value, had = _saved.pop()
            if had:
                setattr(owner, name, value)
            else:
                delattr(owner, name)


def _wrap_init(original):
    @functools.wraps(original)
    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        swap_backend(self)

    return __init__


def swap_backend(tokenizer) -> bool:
    """Puts `tokenizer` (a transformers fast tokenizer) on mtok; True when
    it runs on mtok afterwards. Warns and leaves it on HF when mtok cannot
    reproduce it exactly."""
    backend = getattr(tokenizer, "_tokenizer", None)
    if backend is None:
        return False
    if isinstance(backend, TransformersBackend):
        return backend._hf is None
    try:
        tokenizer._tokenizer = TransformersBackend.from_hf(backend)
        return True
    except MtokError as e:
        name = getattr(tokenizer, "name_or_path", "") or type(tokenizer).__name__
        warnings.warn(f"mtok: {name} stays on HF tokenizers: {e}", FallbackWarning, stacklevel=3)
        return False
