"""HF tokenizers' ``Tokenizer`` surface on mtok's Tokenizer: vocabulary,
added tokens, post-processing, tokenizer.json serialization and read-only
component views. :class:`mtok.Tokenizer` inherits it.

The compiled C++ tokenizer never changes. Adding tokens edits the
tokenizer's spec (its tokenizer.json), writes new .mtok bytes, loads them
and swaps the new compiled tokenizer in; an encode running on another
thread finishes on the one it started with.
"""

import collections
import json
import threading

from .. import _native
from ..errors import MtokError
from . import components
from .added import AddedToken, merge_added_tokens


# The last few tokenizer.json texts compiled by from_str (sha256 -> (.mtok
# bytes, spec)): transformers builds the same tokenizer again and again
# (each from_pretrained, train_new_from_iterator), and compiling a 200k
# vocab takes seconds. Specs are never changed in place, so they are shared.
_COMPILED_MAX = 4
_compiled = collections.OrderedDict()
_compiled_lock = threading.Lock()


class HFSurface:
    """Mixed into :class:`mtok.Tokenizer` (which provides ``_native``,
    ``_settings`` and ``_info``)."""

    # The tokenizer.json-shaped spec this tokenizer was built from, when
    # known (from_str, from_buffer, from_file of a tokenizer.json), or the
    # source file to read it from on first need.
    _spec = None
    _spec_source = None
    _rebuild_lock = threading.Lock()

    # --- construction from tokenizer.json ----------------------------
    @classmethod
    def from_str(cls, json_str: str):
        """Loads a tokenizer from the text of a tokenizer.json, as HF's
        ``Tokenizer.from_str`` (numbers read as HF reads them)."""
        return cls._from_json(json_str, file_floats=True)

    @classmethod
    def _from_json(cls, json_str: str, file_floats: bool):
        """from_str. `file_floats` False reads numbers correctly rounded:
        right for the text of a live HF tokenizer's to_str(), whose
        shortest-repr floats round-trip exactly only that way (HF's own
        parser may land an ulp away and flip a Unigram tie)."""
        if not isinstance(json_str, str):
            raise TypeError("from_str expects the tokenizer.json text as a str")
        import hashlib  # here: it loads OpenSSL (3.6 MB resident), which a load from a file never needs

        key = (hashlib.sha256(json_str.encode("utf-8", "surrogatepass")).digest(), file_floats)
        with _compiled_lock:
            hit = _compiled.get(key)
            if hit is not None:
                _compiled.move_to_end(key)
        if hit is not None:
            tok = cls.from_bytes(hit[0])
            tok._spec = hit[1]
            return tok
        from ..convert.serde_float import serde_f64
        from ..convert.tokenizer_json import spec_from_tokenizer_json

        try:
            data = json.loads(json_str, parse_float=serde_f64 if file_floats else float)
        except ValueError as e:
            raise MtokError(f"tokenizer.json: invalid JSON ({e})") from None
        tok = cls._from_spec(spec_from_tokenizer_json(data))
        with _compiled_lock:
            _compiled[key] = (tok.to_bytes(), tok._spec)
            while len(_compiled) > _COMPILED_MAX:
                _compiled.popitem(last=False)
        return tok

    @classmethod
    def from_buffer(cls, buffer):
        """Loads a tokenizer from tokenizer.json bytes, as HF's
        ``Tokenizer.from_buffer`` (for .mtok bytes use ``from_bytes``)."""
        try:
            text = bytes(buffer).decode("utf-8")
        except UnicodeDecodeError as e:
            raise MtokError(f"tokenizer.json: not UTF-8 ({e})") from None
        return cls.from_str(text)

    @classmethod
    def _from_spec(cls, spec: dict):
        from ..convert.export import export_mtok

        tok = cls.from_bytes(export_mtok(spec, reuse_model=True))
        tok._spec = spec
        return tok

    def _tokenizer_spec(self) -> dict:
        """The spec, read from the source file on first need."""
        if self._spec is None:
            if self._spec_source is None:
                raise MtokError("this tokenizer was loaded from .mtok bytes, which do not keep its "
                                "tokenizer.json; load it with from_file(<tokenizer.json>) or from_str "
                                "to serialize it or add tokens")
            from ..convert import load_spec

            self._spec = load_spec(self._spec_source)
        return self._spec

    def _hf_state(self):
        """What pickling keeps of this surface: the spec (or its source
        file) and encode_special_tokens; None when there is nothing."""
        if self._spec is None and self._spec_source is None and not self.encode_special_tokens:
            return None
        return {"spec": self._spec, "source": self._spec_source, "split": self.encode_special_tokens}

    def _restore_hf_state(self, state) -> None:
        self._spec, self._spec_source = state["spec"], state["source"]
        self.encode_special_tokens = state["split"]

    # --- serialization -------------------------------------------------
    def to_str(self, pretty: bool = False) -> str:
        """This tokenizer as tokenizer.json text that HF tokenizers loads to
        the same ids: the source's components, the added tokens (with those
        added since) and the current truncation and padding."""
        data = {k: v for k, v in self._tokenizer_spec().items() if k != "mtok"}
        data["truncation"] = _hf_truncation(self.truncation)
        data["padding"] = _hf_padding(self.padding)
        return json.dumps(data, ensure_ascii=False, indent=2 if pretty else None)

    # --- vocabulary ------------------------------------------------------
    def get_vocab(self, with_added_tokens: bool = True) -> dict:
        """{token: id} of the model vocabulary, with the added tokens unless
        `with_added_tokens` is False."""
        return self._native.vocab(bool(with_added_tokens))

    def get_added_tokens_decoder(self) -> dict:
        """{id: AddedToken} of every added token, sorted by id."""
        return {t.id: t.token for t in sorted(self._added_entries(), key=lambda t: t.id)}

    def _added_entries(self):
        return [_Entry(i, AddedToken(c, single_word=w, lstrip=l, rstrip=r, normalized=n, special=s))
                for i, c, s, l, r, w, n in self._native.added_tokens()]

    # --- changing tokens -------------------------------------------------
    def add_tokens(self, tokens) -> int:
        """Adds tokens (str or AddedToken) as HF's ``add_tokens`` does and
        returns how many were added; a token already in the vocabulary
        keeps its id. Builds and swaps in a new compiled tokenizer."""
        return self._add(tokens, special=False)

    def add_special_tokens(self, tokens) -> int:
        """:meth:`add_tokens` for special tokens: every token is marked
        special (skipped by ``decode(skip_special_tokens=True)``)."""
        return self._add(tokens, special=True)

    def _add(self, tokens, special: bool) -> int:
        if isinstance(tokens, (str, AddedToken)):
            raise TypeError("add_tokens expects a list of tokens")
        tokens = list(tokens)
        with self._rebuild_lock:
            spec = self._tokenizer_spec()
            entries, count = merge_added_tokens(spec.get("added_tokens") or [], tokens, special,
                                                self.token_to_id, self.vocab_size)
            if count:
                self._swap_spec({**spec, "added_tokens": entries})
        return count

    def _swap_spec(self, spec: dict) -> None:
        """Compiles `spec` and makes it this tokenizer's (under the lock)."""
        from ..convert.export import export_mtok

        native = _native.Tokenizer.from_bytes(export_mtok(spec, reuse_model=True))
        self._spec = spec
        self._chat = None
        self._info = native.info()
        self._native = native
        if self._settings.split_special is not None:
            self._settings = self._settings.with_split_special(self._non_special_ids())

    # --- encode_special_tokens -------------------------------------------
    @property
    def encode_special_tokens(self) -> bool:
        """When True, special added tokens in the text are encoded as plain
        text (HF's ``encode_special_tokens``); non-special added tokens
        still match."""
        return self._settings.split_special is not None

    @encode_special_tokens.setter
    def encode_special_tokens(self, value: bool) -> None:
        allowed = self._non_special_ids() if value else None
        self._settings = self._settings.with_split_special(allowed)

    def _non_special_ids(self) -> tuple:
        return tuple(t.id for t in self._added_entries() if not t.token.special)

    # --- post-processing -------------------------------------------------
    def post_process(self, encoding, pair=None, add_special_tokens: bool = True):
        """HF's ``post_process``: truncation, then the post-processor's
        special tokens, then padding, applied to Encodings made with
        ``add_special_tokens=False``."""
        return self._native.post_process(encoding, pair, bool(add_special_tokens), self._settings.native)

    # --- component views -------------------------------------------------
    @property
    def normalizer(self):
        """Read-only view of the normalizer (None when there is none)."""
        return components.view(components.Normalizer, self._tokenizer_spec().get("normalizer"))

    @property
    def pre_tokenizer(self):
        """Read-only view of the pre-tokenizer (None when there is none)."""
        return components.view(components.PreTokenizer, self._tokenizer_spec().get("pre_tokenizer"))

    @property
    def post_processor(self):
        """Read-only view of the post-processor (None when there is none)."""
        return components.view(components.PostProcessor, self._tokenizer_spec().get("post_processor"))

    @property
    def model(self):
        """Read-only view of the model; its class is named after the model
        type (BPE, Unigram, WordPiece, WordLevel)."""
        return components.view(components.Model, self._tokenizer_spec().get("model"))

    @property
    def decoder(self):
        """The decoder: ``decoder.decode(tokens)`` gives the text of token
        strings (None when the tokenizer has no decoder)."""
        fields = self._tokenizer_spec().get("decoder")
        return components.view(components.Decoder, fields, self._native)


class _Entry:
    __slots__ = ("id", "token")

    def __init__(self, token_id, token):
        self.id, self.token = token_id, token


def _hf_truncation(truncation):
    """mtok's truncation dict as tokenizer.json writes it."""
    if truncation is None:
        return None
    strategy = "".join(w.capitalize() for w in truncation["strategy"].split("_"))
    return {"direction": truncation["direction"].capitalize(), "max_length": truncation["max_length"],
            "strategy": strategy, "stride": truncation["stride"]}


def _hf_padding(padding):
    """mtok's padding dict as tokenizer.json writes it."""
    if padding is None:
        return None
    strategy = "BatchLongest" if padding["length"] is None else {"Fixed": padding["length"]}
    return {"strategy": strategy, "direction": "Left" if padding["direction"] == "left" else "Right",
            "pad_to_multiple_of": padding["pad_to_multiple_of"], "pad_id": padding["pad_id"],
            "pad_type_id": padding["pad_type_id"], "pad_token": padding["pad_token"]}
