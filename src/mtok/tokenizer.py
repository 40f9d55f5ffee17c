"""The mtok Tokenizer: the documented Python API over the native core.

Names follow HF `tokenizers` where a user would look for them.
"""

import os

from . import _native
# With mtok, not inside from_file: every load from a source (and of a
# built-in encoding) needs it, and importing it there made the first load
# from a small .model pay for it.
from .cache import load_source
from .errors import MtokError
from .hf.surface import HFSurface
from .settings import EncodeSettings, padding_params, truncation_params
from .text import retry_clean, with_clean_text

_ENV_THREADS = "MTOK_NUM_THREADS"


def default_threads() -> int:
    value = os.environ.get(_ENV_THREADS)
    if value:
        try:
            n = int(value)
        except ValueError:
            raise MtokError(f"{_ENV_THREADS}={value!r} is not an integer") from None
        if n < 1:
            raise MtokError(f"{_ENV_THREADS} must be at least 1, got {n}")
        return n
    return os.cpu_count() or 1


# The native side splits no text under SPLIT_MIN_BYTES_WARM (EncodeOptions
# in mtok/tokenizer.h); a str of fewer characters than a quarter of that
# has fewer bytes.
_SPLIT_MIN_CHARS = _native.SPLIT_MIN_BYTES_WARM // 4
# The native encode's defaults, passed by position (no keyword lookup).
_ADDED_ALL, _NO_IDS = _native.AddedTokens.ALL, ()


def _threads(num_threads) -> int:
    if num_threads is None:
        return default_threads()
    if isinstance(num_threads, bool) or not isinstance(num_threads, int) or num_threads < 1:
        raise ValueError(f"num_threads must be a positive int, got {num_threads!r}")
    return num_threads


class Tokenizer(HFSurface):
    """A thread-safe tokenizer over an immutable compiled one.

    Build one with :meth:`from_file` (any supported format, detected by
    content) or :meth:`from_bytes` (.mtok bytes). It can be shared by any
    number of threads and pickles as its .mtok bytes.

    The truncation and padding a tokenizer.json switches on are stored in
    the .mtok file and apply from load, as HF tokenizers applies them;
    :meth:`no_truncation` / :meth:`no_padding` turn them off.

    It also has HF tokenizers' ``Tokenizer`` surface (get_vocab,
    add_tokens, to_str, post_process, component views...): see
    :class:`mtok.hf.surface.HFSurface`.
    """

    def __init__(self, native):
        if not isinstance(native, _native.Tokenizer):
            raise TypeError("use Tokenizer.from_file or Tokenizer.from_bytes")
        self._native = native
        self._info = native.info()
        self._chat = None
        self._chat_meta = {}
        # The source file's own truncation and padding apply, as in HF.
        self._settings = EncodeSettings(self._info["truncation"], self._info["padding"])

    # --- construction -------------------------------------------------
    @classmethod
    def from_file(cls, path, *, pattern: str = None, add_bos: bool = False,
                  add_eos: bool = False, cache: bool = True) -> "Tokenizer":
        """Loads a .mtok (memory-mapped), tokenizer.json, SentencePiece
        .model, .tiktoken or MNN .txt file, or a folder holding one.

        Other formats than .mtok are converted once and the result kept in
        the on-disk cache (``$MTOK_CACHE_DIR``, see :mod:`mtok.cache`), so a
        later load of the same content maps the cached .mtok; ``cache=False``
        (or ``MTOK_CACHE_DIR=off``) converts at every load.

        `pattern` is the split regex for a .tiktoken file that is not one
        of OpenAI's published encodings.

        `add_bos`/`add_eos` are for SentencePiece .model files: by default
        encode() gives SentencePieceProcessor.encode(text)'s ids (no BOS or
        EOS); with them, encode(text) adds BOS/EOS as
        encode(text, add_bos=True, add_eos=True) does (and
        add_special_tokens=False leaves them out).
        """
        from .convert import NativeDeclined, native_sp_buffer, python_mtok_buffer, resolve_source, to_mtok_buffer
        from .convert.detect import detect_format

        path = resolve_source(os.fspath(path))
        kind = detect_format(path)
        if kind == "mtok":
            return cls._from_mtok_file(path)
        options = {"pattern": pattern, "add_bos": bool(add_bos), "add_eos": bool(add_eos)}
        tok = None
        build = lambda data: to_mtok_buffer(path, source_bytes=data, **options)  # noqa: E731
        if kind == "sentencepiece" and not (add_bos or add_eos):
            # Written whole by the native core: the cache reads the .model
            # once, to hash it, and hands the bytes over; the key names the
            # native code only. A file it declines goes the Python way below.
            try:
                tok = load_source(path, options, lambda data: native_sp_buffer(path, data), tokenizer=cls,
                                  enabled=cache, read_source=True, native_only=True)
            except NativeDeclined:
                build = lambda data: python_mtok_buffer(path, kind, **options)  # noqa: E731
        if tok is None:
            tok = load_source(path, options, build, tokenizer=cls, enabled=cache)
        if not (pattern or add_bos or add_eos):
            tok._spec_source = path  # to_str / add_tokens read the spec from it
        return tok

    @classmethod
    def from_pretrained(cls, name_or_path, revision: str = None, *, cache_dir: str = None,
                        pattern: str = None, add_bos: bool = False, add_eos: bool = False,
                        cache: bool = True) -> "Tokenizer":
        """Loads the tokenizer of a local folder, or of a model id (``org/name``)
        in the local Hugging Face cache (``$HF_HUB_CACHE``, ``$HF_HOME/hub``,
        or `cache_dir`) at `revision` (a branch, tag or commit; default
        main). Offline: a model that is not there raises ModelNotFoundError
        naming the places looked. The file is the one transformers picks
        (tokenizer.json, else tokenizer.model / spiece.model, else a
        .tiktoken file); the other keywords are :meth:`from_file`'s."""
        from .convert.detect import detect_format
        from .pretrained import attach_folder_chat, resolve

        path = resolve(name_or_path, revision, cache_dir)
        tok = cls.from_file(path, pattern=pattern, add_bos=add_bos, add_eos=add_eos, cache=cache)
        if detect_format(path) in ("sentencepiece", "tiktoken"):
            attach_folder_chat(tok, path)
        return tok

    @classmethod
    def _from_mtok_file(cls, path) -> "Tokenizer":
        return cls(_native.Tokenizer.from_file(os.fspath(path)))

    @classmethod
    def from_bytes(cls, data: bytes) -> "Tokenizer":
        """Loads .mtok bytes (copied)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("from_bytes expects bytes")
        return cls(_native.Tokenizer.from_bytes(bytes(data)))

    def to_bytes(self) -> bytes:
        """The .mtok bytes of this tokenizer."""
        return self._native.to_bytes()

    def save(self, path) -> None:
        """Writes the tokenizer as a .mtok file."""
        tmp = os.fspath(path) + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self.to_bytes())
        os.replace(tmp, path)

    def __reduce__(self):
        return (_unpickle, (self.to_bytes(), self._settings.truncation, self._settings.padding,
                            self._hf_state()))

    # --- encoding -----------------------------------------------------
    def encode(self, text, pair=None, *, add_special_tokens: bool = True,
               return_encoding: bool = False, num_threads: int = None):
        """Token ids of `text` (str, or UTF-8 bytes), or with
        ``return_encoding=True`` an :class:`Encoding` (ids, tokens, character
        offsets, masks, type and word ids, overflowing pieces) as HF's
        ``encode`` gives. `pair` is a second sequence (Bert/Roberta style).

        Truncation and padding set on this object apply. A str with lone
        surrogates has them replaced by U+FFFD first (as tiktoken does);
        bytes that are not valid UTF-8 raise EncodeError.

        An ids-only encode of a long text (192 KB and more; 64 KB and more
        once the native threads have encoded parts of this tokenizer's long
        texts) may cut it where the pre-tokenizer always splits and encode
        the parts on native threads: `num_threads`, else $MTOK_NUM_THREADS,
        else the number of CPUs; 1 keeps the work on the calling thread. The
        ids are the same.
        """
        config = self._settings.native
        if pair is None and config is None and not return_encoding:
            # The common call, without a second Python frame: on a short
            # text that frame was a tenth of the time.
            add = True if add_special_tokens else False
            if len(text) < _SPLIT_MIN_CHARS:
                threads = 1
            else:
                threads = _threads(num_threads)
            try:
                return self._native.encode(text, add, _ADDED_ALL, _NO_IDS, threads)
            except UnicodeEncodeError:
                return retry_clean(self._native.encode, text, add, _ADDED_ALL, _NO_IDS, threads)
        if isinstance(pair, bool):
            raise TypeError("pair must be a str; pass add_special_tokens as a keyword")
        add = bool(add_special_tokens)
        if not return_encoding:
            return with_clean_text(self._native.encode_full_ids, text, pair, add, config)
        return with_clean_text(self._native.encode_full, text, pair, add, config, True)

    def encode_to_numpy(self, text, add_special_tokens: bool = True, *, num_threads: int = None):
        """:meth:`encode`'s ids of `text` as a 1-D, writable ``uint32`` numpy
        array, made from the native ids in one copy: no Python int and no
        list slot per id. Truncation and padding set on this object apply,
        as in encode()."""
        add = True if add_special_tokens else False
        if self._settings.native is not None:
            import numpy as np

            return np.asarray(self.encode(text, add_special_tokens=add, num_threads=num_threads), dtype=np.uint32)
        threads = 1 if len(text) < _SPLIT_MIN_CHARS else _threads(num_threads)
        try:  # with_clean_text inlined, as in encode()
            return self._native.encode_numpy(text, add, _ADDED_ALL, _NO_IDS, threads)
        except UnicodeEncodeError:
            return retry_clean(self._native.encode_numpy, text, add, _ADDED_ALL, _NO_IDS, threads)

    def encode_batch(self, texts, add_special_tokens: bool = True, *, num_threads: int = None,
                     return_encoding: bool = False) -> list:
        """Encodes many texts (or ``(text, pair)`` tuples) on native threads,
        releasing the GIL once; ids per text, or Encodings with
        ``return_encoding=True``. Padding pads to the longest of the batch
        unless a length is set. Threads default to $MTOK_NUM_THREADS or the
        number of CPUs."""
        texts, pairs = _split_pairs(texts)
        add = bool(add_special_tokens)
        threads = num_threads or default_threads()
        config = self._settings.native
        if return_encoding:
            return with_clean_text(self._native.encode_batch_full, texts, pairs, add, config, threads)
        return with_clean_text(self._native.encode_batch, texts, pairs, add, config, threads)

    def encode_batch_to_numpy(self, texts, add_special_tokens: bool = True, *, padding=None,
                              num_threads: int = None):
        """Encodes a batch into numpy arrays that wrap native buffers.

        Padded (``padding=True``, or None with padding enabled): a pair of
        ``uint32`` matrices ``(ids, attention_mask)`` of shape (n, length),
        padded as :meth:`enable_padding` says (default: right, pad id 0, to
        the longest row). Otherwise the ragged pair ``(ids, row_splits)``:
        all ids in one ``uint32`` array, row i being
        ``ids[row_splits[i]:row_splits[i + 1]]`` (``row_splits`` is int64).
        """
        texts, pairs = _split_pairs(texts)
        pad = self._settings.padding is not None if padding is None else bool(padding)
        add = bool(add_special_tokens)
        threads = num_threads or default_threads()
        config = self._settings.native
        return with_clean_text(self._native.encode_batch_numpy, texts, pairs, add, config, threads, pad)

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        """How many special tokens the post-processor adds to a single input
        or to a pair."""
        return self._native.num_special_tokens_to_add(bool(is_pair))

    # --- truncation and padding (HF names and semantics) ---------------
    def enable_truncation(self, max_length: int, stride: int = 0, strategy: str = "longest_first",
                          direction: str = "right") -> None:
        """Truncates every encode to `max_length` tokens (special tokens
        included); the cut-off tokens go to ``Encoding.overflowing`` in
        windows overlapping by `stride`. `strategy` is ``longest_first``,
        ``only_first`` or ``only_second``; `direction` ``right`` or ``left``."""
        params = truncation_params(max_length, stride, strategy, direction,
                                   self.num_special_tokens_to_add(False))
        self._settings = self._settings.with_truncation(params)

    def no_truncation(self) -> None:
        """Turns truncation off."""
        self._settings = self._settings.with_truncation(None)

    @property
    def truncation(self):
        """The truncation parameters as HF's dict, or None when off."""
        t = self._settings.truncation
        return dict(t) if t else None

    def enable_padding(self, direction: str = "right", pad_id: int = 0, pad_type_id: int = 0,
                       pad_token: str = "[PAD]", length: int = None,
                       pad_to_multiple_of: int = None) -> None:
        """Pads encodings to `length`, or a batch to its longest encoding,
        rounded up to a multiple of `pad_to_multiple_of` when given."""
        params = padding_params(direction, pad_id, pad_type_id, pad_token, length, pad_to_multiple_of)
        self._settings = self._settings.with_padding(params)

    def no_padding(self) -> None:
        """Turns padding off."""
        self._settings = self._settings.with_padding(None)

    @property
    def padding(self):
        """The padding parameters as HF's dict, or None when off."""
        p = self._settings.padding
        return dict(p) if p else None

    # --- decoding -----------------------------------------------------
    def decode(self, ids, skip_special_tokens: bool = False) -> str:
        """Text of `ids`. Unknown ids are skipped, as HF does."""
        return self._native.decode([int(i) for i in ids], bool(skip_special_tokens))

    def decode_batch(self, batch, skip_special_tokens: bool = False, *, num_threads: int = None) -> list:
        """Texts of many id lists, decoded on native threads with the GIL
        released once."""
        skip, threads = bool(skip_special_tokens), num_threads or default_threads()
        rows = batch if isinstance(batch, list) else list(batch)
        try:
            return self._native.decode_batch(rows, skip, threads)
        except TypeError:  # ids that are not Python ints (numpy integers, ...)
            return self._native.decode_batch([[int(i) for i in ids] for ids in rows], skip, threads)

    # --- vocabulary ---------------------------------------------------
    def token_to_id(self, token: str):
        """Id of a token string (added tokens first), or None."""
        return self._native.token_to_id(token)

    def id_to_token(self, id: int):
        """Token string of an id, or None."""
        if id < 0:
            return None
        return self._native.id_to_token(int(id))

    def get_vocab_size(self, with_added_tokens: bool = True) -> int:
        return self._native.vocab_size(bool(with_added_tokens))

    @property
    def vocab_size(self) -> int:
        """Size of the model vocabulary, without added tokens."""
        return self._native.vocab_size(False)

    def __len__(self) -> int:
        """Size of the vocabulary with added tokens."""
        return self._native.vocab_size(True)

    def is_special(self, id: int) -> bool:
        return self._native.is_special(int(id))

    # --- chat templates -----------------------------------------------
    def _chat_templates(self):
        if self._chat is None:
            import json

            from .chat import ChatTemplates

            meta = json.loads(self._info["chat_json"]) if self._info["chat_json"] else {}
            self._chat_meta = meta
            value = meta.get("named_templates") or self._info["chat_template"] or None
            self._chat = ChatTemplates.from_config_value(value)
        return self._chat

    @property
    def special_tokens_map(self) -> dict:
        """The special token texts chat templates see (bos_token, eos_token,
        ...), from the source's tokenizer_config.json."""
        self._chat_templates()
        specials = dict(self._chat_meta.get("special_tokens_map") or {})
        for key, value in (("bos_token", self.bos_token), ("eos_token", self.eos_token)):
            if value and key not in specials:
                specials[key] = value
        return specials

    def apply_chat_template(self, messages, *, tools=None, documents=None,
                            add_generation_prompt: bool = False, continue_final_message=False,
                            chat_template: str = None, tokenize: bool = False, **template_kwargs):
        """Renders a conversation with the tokenizer's chat template exactly as
        transformers' ``apply_chat_template`` does (sandboxed jinja2).

        `chat_template` is a template name or template source. With
        ``tokenize=True`` the rendered text is encoded without adding special
        tokens, as transformers does. Errors raise TemplateError.
        """
        text = self._chat_templates().render(
            messages, tools=tools, documents=documents,
            add_generation_prompt=add_generation_prompt,
            continue_final_message=continue_final_message, chat_template=chat_template,
            special_tokens_map=self.special_tokens_map, **template_kwargs)
        if not tokenize:
            return text
        return self.encode(text, add_special_tokens=False)

    # --- metadata -----------------------------------------------------
    @property
    def eos_token(self) -> str:
        return self._info["eos_token"]

    @property
    def bos_token(self) -> str:
        return self._info["bos_token"]

    @property
    def chat_template(self):
        return self._info["chat_template"] or None

    @property
    def stop_ids(self) -> list:
        return list(self._info["stop_ids"])

    @property
    def special_ids(self) -> list:
        return list(self._info["special_ids"])

    @property
    def model_type(self) -> str:
        return self._info["model_type"]

    def inspect(self) -> dict:
        """Header counts, sections with offsets and sizes, and metadata."""
        return dict(self._info)

    def debug_info(self) -> dict:
        """How this tokenizer runs, as {name: description}: the ids fast
        path in use, the calling thread's pre-token cache (size, bound, hits
        and misses), how many long encodes were split on native threads
        (`split_encodes`) and how many bytes of their parts those threads
        encoded (`split_pool_bytes`), and, for Unigram models, where the
        trie lives (mapped from the file or built at load, and on which
        page size once it has moved to huge pages)."""
        return dict(self._native.runtime_info())

    def __repr__(self) -> str:
        return f"<mtok.Tokenizer {self.model_type} vocab={len(self)}>"


def _unpickle(data, truncation, padding, hf_state=None):
    tok = Tokenizer.from_bytes(data)
    tok._settings = EncodeSettings(truncation, padding)
    if hf_state is not None:
        tok._restore_hf_state(hf_state)
    return tok


def _split_pairs(texts):
    """(texts, pairs or None) from a list of texts or of (text, pair) tuples."""
    texts = list(texts)
    is_pair = [isinstance(t, (tuple, list)) for t in texts]
    if not any(is_pair):
        return texts, None
    if not all(is_pair) or any(len(t) != 2 for t in texts):
        raise TypeError("encode_batch takes texts, or (text, pair) tuples, not a mix")
    return [t[0] for t in texts], [t[1] for t in texts]
