"""The mtok Tokenizer: the documented Python API over the native core.

Names follow HF `tokenizers` where a user would look for them.
"""

import os

from . import _native
from .errors import FormatError, MtokError, TemplateError
from .text import call_with_text

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


class Tokenizer:
    """An immutable, thread-safe tokenizer.

    Build one with :meth:`from_file` (any supported format, detected by
    content) or :meth:`from_bytes` (.mtok bytes). It can be shared by any
    number of threads and pickles as its .mtok bytes.
    """

    def __init__(self, native):
        if not isinstance(native, _native.Tokenizer):
            raise TypeError("use Tokenizer.from_file or Tokenizer.from_bytes")
        self._native = native
        self._info = native.info()
        self._chat = None

    # --- construction -------------------------------------------------
    @classmethod
    def from_file(cls, path, *, pattern: str = None) -> "Tokenizer":
        """Loads a .mtok (memory-mapped), tokenizer.json, SentencePiece
        .model, .tiktoken or MNN .txt file, or a folder holding one.

        `pattern` is the split regex for a .tiktoken file that is not one
        of OpenAI's published encodings.
        """
        from .convert import resolve_source, to_mtok_bytes
        from .convert.detect import detect_format

        path = resolve_source(os.fspath(path))
        if detect_format(path) == "mtok":
            return cls(_native.Tokenizer.from_file(path))
        return cls.from_bytes(to_mtok_bytes(path, pattern=pattern))

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
        return (Tokenizer.from_bytes, (self.to_bytes(),))

    # --- encoding -----------------------------------------------------
    def encode(self, text, add_special_tokens: bool = True) -> list:
        """Token ids of `text` (str, or UTF-8 bytes).

        A str with lone surrogates has them replaced by U+FFFD first (as
        tiktoken does); bytes that are not valid UTF-8 raise EncodeError.
        """
        ids, raw = call_with_text(self._native.encode, text, bool(add_special_tokens))
        if raw is not None:
            return self._native.encode_bytes(raw, bool(add_special_tokens))
        return ids

    def encode_batch(self, texts, add_special_tokens: bool = True, *, num_threads: int = None) -> list:
        """Encodes many texts on native threads, releasing the GIL once.
        Threads default to $MTOK_NUM_THREADS or the number of CPUs."""
        from .text import clean_surrogates

        batch = []
        for t in texts:
            if isinstance(t, (bytes, bytearray)):
                t = bytes(t).decode("utf-8", "strict")
            elif not isinstance(t, str):
                raise TypeError(f"texts must be str or bytes, not {type(t).__name__}")
            batch.append(t)
        threads = num_threads or default_threads()
        try:
            return self._native.encode_batch(batch, bool(add_special_tokens), threads)
        except (TypeError, UnicodeEncodeError):
            batch = [clean_surrogates(t) for t in batch]
            return self._native.encode_batch(batch, bool(add_special_tokens), threads)

    # --- decoding -----------------------------------------------------
    def decode(self, ids, skip_special_tokens: bool = False) -> str:
        """Text of `ids`. Unknown ids are skipped, as HF does."""
        return self._native.decode([int(i) for i in ids], bool(skip_special_tokens))

    def decode_batch(self, batch, skip_special_tokens: bool = False) -> list:
        return [self.decode(ids, skip_special_tokens) for ids in batch]

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

    def __repr__(self) -> str:
        return f"<mtok.Tokenizer {self.model_type} vocab={len(self)}>"
