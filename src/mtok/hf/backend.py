"""TransformersBackend: HF tokenizers' ``Tokenizer`` interface, the one
transformers calls on ``tokenizer._tokenizer``, running on mtok.

Encoding, decoding, the vocabulary, added tokens, truncation and padding run
on an :class:`mtok.Tokenizer`. What mtok does not compute itself is done by
HF tokenizers on a tokenizer built from this one's tokenizer.json (so the
result is HF's own): pre-tokenized input, the methods of the components
(``normalizer.normalize_str``...), training. Assigning a component that mtok
cannot compile (``backend.normalizer = ...``) moves this backend onto HF
tokenizers for good, with a warning naming the reason.
"""

import copy
import json
import threading
import warnings

from .. import _native
from ..errors import MtokError
from ..text import with_clean_text
from ..tokenizer import Tokenizer, _split_pairs, default_threads
from . import components
from .encoding import HFEncoding, LazyEncodings


class FallbackWarning(UserWarning):
    """A tokenizer stays on (or moves to) HF tokenizers: mtok cannot give
    exactly its results. The message names the tokenizer and the reason."""


# Column bits of the native encode_batch_columns.
COLUMNS = {"token_type_ids": 1, "attention_mask": 2, "special_tokens_mask": 4,
           "offset_mapping": 8, "length": 16}


def _hf_tokenizers():
    import tokenizers

    return tokenizers


class TransformersBackend:
    """A drop-in for ``tokenizers.Tokenizer`` on mtok (see the module doc)."""

    def __init__(self, tokenizer: Tokenizer):
        if not isinstance(tokenizer, Tokenizer):
            raise TypeError("TransformersBackend wraps an mtok.Tokenizer")
        self._tok = tokenizer
        self._lock = threading.Lock()
        self._reference_cache = None  # (spec, HF Tokenizer) built from the spec
        self._added_cache = None      # (native, {id: AddedToken})
        self._hf = None               # set when this backend has moved onto HF
        self._reread_cache = None     # (spec, spec as HF rereads it, or None when the same)

    # --- construction ----------------------------------------------------
    @classmethod
    def from_str(cls, json_str: str) -> "TransformersBackend":
        return cls(Tokenizer.from_str(json_str))

    @classmethod
    def from_buffer(cls, buffer) -> "TransformersBackend":
        return cls(Tokenizer.from_buffer(buffer))

    @classmethod
    def from_file(cls, path) -> "TransformersBackend":
        with open(path, encoding="utf-8") as f:
            return cls.from_str(f.read())

    @classmethod
    def from_hf(cls, hf_tokenizer) -> "TransformersBackend":
        """The mtok backend of an HF ``tokenizers.Tokenizer``, with its
        current truncation, padding and encode_special_tokens; raises
        MtokError when mtok cannot reproduce it exactly."""
        from .probe import check_same

        backend = cls(Tokenizer._from_json(hf_tokenizer.to_str(), file_floats=False))
        backend.encode_special_tokens = hf_tokenizer.encode_special_tokens
        check_same(hf_tokenizer, backend)
        # The HF object is the reference while the spec stays the same: one
        # rebuilt from to_str() may read its floats an ulp away.
        backend._reference_cache = (backend._tok._tokenizer_spec(), hf_tokenizer)
        return backend

    # --- the HF reference for what mtok does not compute -------------------
    def _reference(self):
        """An HF tokenizer with this tokenizer's current spec and settings
        (shared by copies: never changed but for its settings)."""
        if self._hf is not None:
            return self._hf
        spec = self._tok._tokenizer_spec()
        cached = self._reference_cache
        if cached is None or cached[0] is not spec:
            hf = _hf_tokenizers().Tokenizer.from_str(self._tok.to_str())
            cached = self._reference_cache = (spec, hf)
        hf = cached[1]
        tok = self._tok
        if hf.truncation != tok.truncation:
            if tok.truncation:
                hf.enable_truncation(**tok.truncation)
            else:
                hf.no_truncation()
        if hf.padding != tok.padding:
            if tok.padding:
                hf.enable_padding(**tok.padding)
            else:
                hf.no_padding()
        hf.encode_special_tokens = tok.encode_special_tokens
        return hf

    def _impl(self):
        """Where a call runs: the mtok tokenizer, or HF's after a move."""
        return self._hf if self._hf is not None else self._tok

    def _move_to_hf(self, hf, reason: str) -> None:
        warnings.warn(f"mtok: this tokenizer now runs on HF tokenizers: {reason}", FallbackWarning,
                      stacklevel=3)
        self._hf = hf

    def _change(self, key: str, value) -> None:
        """Sets a component (a tokenizers object, or None) and recompiles."""
        fields = None if value is None else _component_fields(value)
        with self._lock:
            if self._hf is not None:
                setattr(self._hf, key, value)
                return
            spec = self._tok._tokenizer_spec()
            try:
                with self._tok._rebuild_lock:
                    self._tok._swap_spec({**spec, key: fields})
            except MtokError as e:
                hf = copy.deepcopy(self._reference())
                setattr(hf, key, value)
                self._move_to_hf(hf, f"mtok cannot compile its new {key} ({e})")

    # --- settings ----------------------------------------------------------
    @property
    def truncation(self):
        return self._hf.truncation if self._hf is not None else self._tok.truncation

    @property
    def padding(self):
        return self._hf.padding if self._hf is not None else self._tok.padding

    def enable_truncation(self, max_length, stride=0, strategy="longest_first", direction="right"):
        self._impl().enable_truncation(max_length, stride=stride, strategy=strategy,
                                                  direction=direction)

    def no_truncation(self):
        self._impl().no_truncation()

    def enable_padding(self, direction="right", pad_id=0, pad_type_id=0, pad_token="[PAD]", length=None,
                       pad_to_multiple_of=None):
        self._impl().enable_padding(direction=direction, pad_id=pad_id, pad_type_id=pad_type_id,
                                               pad_token=pad_token, length=length,
                                               pad_to_multiple_of=pad_to_multiple_of)

    def no_padding(self):
        self._impl().no_padding()

    @property
    def encode_special_tokens(self) -> bool:
        return self._impl().encode_special_tokens

    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None:
        self._impl().encode_special_tokens = bool(value)

    # --- encoding ----------------------------------------------------------
    def encode(self, sequence, pair=None, is_pretokenized=False, add_special_tokens=True):
        if self._hf is not None or is_pretokenized:
            return self._reference().encode(sequence, pair, is_pretokenized=is_pretokenized,
                                            add_special_tokens=add_special_tokens)
        tok = self._tok
        config = tok._settings.native
        add = bool(add_special_tokens)
        return HFEncoding(with_clean_text(
            lambda t, p: tok._native.encode_full(t, p, add, config, True), sequence, pair))

    def encode_batch(self, input, is_pretokenized=False, add_special_tokens=True):
        if self._hf is not None or is_pretokenized:
            return self._reference().encode_batch(input, is_pretokenized=is_pretokenized,
                                                  add_special_tokens=add_special_tokens)
        texts, pairs = _split_pairs(input)
        return self._encodings(texts, pairs, bool(add_special_tokens), self._tok._settings.native, False)

    encode_batch_fast = encode_batch

    def _encodings(self, texts, pairs, add, config, overflow):
        tok = self._tok
        threads = default_threads()
        encs = with_clean_text(
            lambda t, p: tok._native.encode_batch_full(t, p, add, config, threads), texts, pairs)
        out = []
        for e in encs:
            out.append(HFEncoding(e))
            if overflow:
                out += [HFEncoding(o) for o in e.overflowing]
        return out

    def encode_columns(self, texts, pairs, add_special_tokens, columns, overflow):
        """transformers' BatchEncoding data for a batch, built natively:
        ({column: rows}, n_sequences, lazy encodings). `columns` names the
        optional columns (see COLUMNS)."""
        tok = self._tok
        config = tok._settings.native  # one snapshot for the columns and the encodings
        add = bool(add_special_tokens)
        want = 0
        for name in columns:
            want |= COLUMNS[name]
        threads = default_threads()
        data, n_sequences = with_clean_text(
            lambda t, p: tok._native.encode_batch_columns(t, p, add, config, threads, want,
                                                          bool(overflow)), texts, pairs)
        lazy = LazyEncodings(lambda: self._encodings(texts, pairs, add, config, overflow))
        return data, n_sequences, lazy

    def post_process(self, encoding, pair=None, add_special_tokens=True):
        if self._hf is not None:
            return self._hf.post_process(encoding, pair, add_special_tokens)
        unwrap = (lambda e: e._e if isinstance(e, HFEncoding) else e)
        return HFEncoding(self._tok.post_process(unwrap(encoding), None if pair is None else unwrap(pair),
                                                 add_special_tokens))

    def num_special_tokens_to_add(self, is_pair):
        return self._impl().num_special_tokens_to_add(is_pair)

    # --- decoding ----------------------------------------------------------
    def decode(self, ids, skip_special_tokens=True):
        return self._impl().decode(ids, skip_special_tokens=skip_special_tokens)

    def decode_batch(self, sequences, skip_special_tokens=True):
        if self._hf is not None:
            return self._hf.decode_batch(sequences, skip_special_tokens=skip_special_tokens)
        return self._tok.decode_batch(sequences, skip_special_tokens=skip_special_tokens)

    # --- vocabulary and added tokens -------------------------------------
    def id_to_token(self, id):
        return self._impl().id_to_token(id)

    def token_to_id(self, token):
        return self._impl().token_to_id(token)

    def get_vocab(self, with_added_tokens=True):
        return self._impl().get_vocab(with_added_tokens=with_added_tokens)

    def get_vocab_size(self, with_added_tokens=True):
        return self._impl().get_vocab_size(with_added_tokens=with_added_tokens)

    def get_added_tokens_decoder(self):
        """{id: tokenizers.AddedToken}, HF's own objects (transformers
        compares and serializes them)."""
        if self._hf is not None:
            return self._hf.get_added_tokens_decoder()
        native = self._tok._native
        cached = self._added_cache
        if cached is None or cached[0] is not native:
            make = _hf_tokenizers().AddedToken
            decoder = {i: make(t.content, single_word=t.single_word, lstrip=t.lstrip, rstrip=t.rstrip,
                               normalized=t.normalized, special=t.special)
                       for i, t in self._tok.get_added_tokens_decoder().items()}
            cached = self._added_cache = (native, decoder)
        return dict(cached[1])

    def add_tokens(self, tokens):
        with self._lock:
            return self._impl().add_tokens(tokens)

    def add_special_tokens(self, tokens):
        with self._lock:
            return self._impl().add_special_tokens(tokens)

    # --- components ----------------------------------------------------------
    def _view(self, kind, key):
        if self._hf is not None:
            return getattr(self._hf, key)
        fields = self._tok._tokenizer_spec().get(key)
        return components.view(kind, fields, self._tok._native, lambda: getattr(self._reference(), key))

    normalizer = property(lambda self: self._view(components.Normalizer, "normalizer"),
                          lambda self, v: self._change("normalizer", v))
    pre_tokenizer = property(lambda self: self._view(components.PreTokenizer, "pre_tokenizer"),
                             lambda self, v: self._change("pre_tokenizer", v))
    post_processor = property(lambda self: self._view(components.PostProcessor, "post_processor"),
                              lambda self, v: self._change("post_processor", v))
    decoder = property(lambda self: self._view(components.Decoder, "decoder"),
                       lambda self, v: self._change("decoder", v))
    model = property(lambda self: self._view(components.Model, "model"),
                     lambda self, v: self._change("model", v))

    # --- serialization -------------------------------------------------------
    def to_str(self, pretty=False):
        return self._impl().to_str(pretty=pretty)

    def save(self, path, pretty=True):
        text = self.to_str(pretty=pretty)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def __getstate__(self):
        if self._hf is not None:
            return {"hf": self._hf.to_str()}
        tok = self._tok
        return {"mtok": tok.to_bytes(), "spec": tok._tokenizer_spec(), "truncation": tok.truncation,
                "padding": tok.padding, "encode_special_tokens": tok.encode_special_tokens}

    def __setstate__(self, state):
        if "hf" in state:
            self.__init__(Tokenizer.from_str(state["hf"]))
            self._hf = _hf_tokenizers().Tokenizer.from_str(state["hf"])
            return
        # HF's unpickle rereads the scores from JSON (see _reread_spec): when
        # that moves one, compile the moved spec instead of the pickled bytes.
        reread = _reread_scores(state["spec"])
        if reread is None:
            tok = Tokenizer.from_bytes(state["mtok"])
            tok._spec = state["spec"]
        else:
            tok = Tokenizer._from_spec(reread)
        _copy_settings(state, tok)
        self.__init__(tok)

    def __deepcopy__(self, memo):
        """A copy as HF's own: HF copies a Tokenizer through its JSON text,
        which can move a Unigram score by an ulp (see _reread_spec). When
        nothing moves, the copy shares the immutable compiled tokenizer."""
        src = self._tok
        reread = None if self._hf is not None else self._reread_spec()
        if reread is None:
            tok = Tokenizer(src._native)
            tok._spec, tok._spec_source, tok._settings = src._spec, src._spec_source, src._settings
        else:
            tok = _rebuilt(reread, src)
        new = TransformersBackend(tok)
        if reread is None:
            new._reference_cache, new._reread_cache = self._reference_cache, self._reread_cache
        if self._hf is not None:
            new._hf = copy.deepcopy(self._hf, memo)
        memo[id(self)] = new
        return new

    def _reread_spec(self):
        """The spec as HF tokenizers holds it after writing it into its JSON
        text and reading that back, or None when that changes nothing. HF
        reads floats with serde_json's parser, which can land an ulp away
        from the written value (mtok.convert.serde_float); in a Unigram
        vocab that moves Viterbi ties, so HF's copies and pickles of a
        tokenizer built from exact scores (transformers converts
        spiece.model so) can give other ids than the original. Only the
        Unigram scores are floats that reach the ids."""
        spec = self._tok._tokenizer_spec()
        cached = self._reread_cache
        if cached is None or cached[0] is not spec:
            cached = self._reread_cache = (spec, _reread_scores(spec))
        return cached[1]

    def __copy__(self):
        return self.__deepcopy__({})

    # --- training --------------------------------------------------------------
    def train_from_iterator(self, iterator, trainer=None, length=None):
        """Trains with HF tokenizers' trainer (mtok has none yet), on an HF
        tokenizer built from this one, then compiles the result."""
        hf = _hf_tokenizers().Tokenizer.from_str(self.to_str())
        hf.train_from_iterator(iterator, trainer=trainer, length=length)
        self._adopt(hf)

    def train(self, files, trainer=None):
        """As :meth:`train_from_iterator`, from files."""
        hf = _hf_tokenizers().Tokenizer.from_str(self.to_str())
        hf.train(files, trainer=trainer)
        self._adopt(hf)

    def _adopt(self, hf):
        with self._lock:
            try:
                fresh = TransformersBackend.from_hf(hf)
            except MtokError as e:
                self._move_to_hf(hf, f"mtok cannot run the trained tokenizer ({e})")
                return
            self._tok, self._hf = fresh._tok, None

    def __repr__(self):
        where = "HF tokenizers" if self._hf is not None else "mtok"
        return f"<mtok.hf.TransformersBackend on {where}, vocab={self.get_vocab_size()}>"


def _component_fields(value):
    """The tokenizer.json object of an HF component (its pickled state)."""
    state = value.__getstate__()
    return json.loads(state.decode() if isinstance(state, bytes) else state)


def _reread_scores(spec):
    """spec with each Unigram score as HF rereads it from its own JSON
    text, or None when every score reads back the same."""
    model = spec.get("model") or {}
    vocab = model.get("vocab")
    if model.get("type") != "Unigram" or not isinstance(vocab, list) or not vocab:
        return None
    scores = [score for _, score in vocab]
    reread = _native.hf_json_reread(scores)
    if reread == scores:
        return None
    moved = dict(spec)
    moved["model"] = dict(model, vocab=[[piece, score] for (piece, _), score in zip(vocab, reread)])
    return moved


def _rebuilt(spec, settings_from: Tokenizer) -> Tokenizer:
    """A tokenizer compiled from spec, with the settings of another."""
    tok = Tokenizer._from_spec(spec)
    _copy_settings({"truncation": settings_from.truncation, "padding": settings_from.padding,
                    "encode_special_tokens": settings_from.encode_special_tokens}, tok)
    return tok


def _copy_settings(state, tok):
    if state["truncation"]:
        tok.enable_truncation(**state["truncation"])
    else:
        tok.no_truncation()
    if state["padding"]:
        tok.enable_padding(**state["padding"])
    else:
        tok.no_padding()
    tok.encode_special_tokens = state["encode_special_tokens"]
