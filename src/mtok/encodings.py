"""OpenAI encodings, offline: ``mtok.get_encoding("o200k_base")``.

The rank files ship inside the package (src/mtok/data); the converted .mtok
bytes are cached per user so later loads only map a file.
"""

import functools
import hashlib
import lzma
import os

from .convert.openai_encodings import ENCODINGS
from .convert.tiktoken_file import parse_ranks, spec_from_ranks
from .errors import FormatError
from .format.writer import write_mtok
from .text import clean_surrogates
from .tokenizer import Tokenizer

_DATA_DIR = os.path.join(os.path.dirname(__file__), "data")
# Bump when the writer's output for a given rank file changes.
_CACHE_REVISION = "1"


def list_encoding_names() -> list:
    return list(ENCODINGS)


def _cache_dir() -> str:
    base = os.environ.get("MTOK_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "mtok")
    return base


def _mtok_bytes(name: str) -> bytes:
    base, digest, pattern, specials, _ = ENCODINGS[name]
    cache = os.path.join(_cache_dir(), f"{name}-{digest[:16]}-r{_CACHE_REVISION}.mtok")
    try:
        with open(cache, "rb") as f:
            return f.read()
    except OSError:
        pass
    with lzma.open(os.path.join(_DATA_DIR, base + ".tiktoken.xz")) as f:
        raw = f.read()
    if hashlib.sha256(raw).hexdigest() != digest:
        raise FormatError(f"the packaged rank file for {name} is corrupt (sha256 mismatch)")
    data = write_mtok(spec_from_ranks(parse_ranks(raw, base), pattern, specials, name))
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        tmp = f"{cache}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, cache)
    except OSError:
        pass  # a read-only home only costs the conversion next time
    return data


@functools.lru_cache(maxsize=None)
def get_encoding(name: str) -> "Encoding":
    """A built-in OpenAI encoding (gpt2, r50k_base, p50k_base, p50k_edit,
    cl100k_base, o200k_base, o200k_harmony)."""
    if name not in ENCODINGS:
        raise ValueError(f"Unknown encoding {name!r}. Plugins found: {list_encoding_names()}")
    _, _, pattern, specials, explicit_n_vocab = ENCODINGS[name]
    return Encoding(name, Tokenizer.from_bytes(_mtok_bytes(name)), pattern, dict(specials), explicit_n_vocab)


class Encoding:
    """tiktoken's Encoding API over an mtok tokenizer."""

    def __init__(self, name, tokenizer, pat_str, special_tokens, explicit_n_vocab=None):
        self.name = name
        self._tokenizer = tokenizer
        self._pat_str = pat_str
        self._special_tokens = special_tokens
        self.max_token_value = max(tokenizer.vocab_size - 1, max(special_tokens.values(), default=0))
        if explicit_n_vocab is not None and explicit_n_vocab != self.max_token_value + 1:
            raise FormatError(f"{name}: expected {explicit_n_vocab} tokens, found {self.max_token_value + 1}")

    def __repr__(self):
        return f"<Encoding {self.name!r}>"

    @property
    def n_vocab(self) -> int:
        return self.max_token_value + 1

    @property
    def eot_token(self) -> int:
        return self._special_tokens["<|endoftext|>"]

    @property
    def special_tokens_set(self) -> set:
        return set(self._special_tokens)

    # --- encoding -----------------------------------------------------
    def encode_ordinary(self, text: str) -> list:
        """Encodes text, treating special-token text as ordinary text."""
        return self._native_encode(text, 1, [])

    def encode(self, text: str, *, allowed_special=frozenset(), disallowed_special="all") -> list:
        """tiktoken's encode: special-token text raises unless allowed."""
        if allowed_special == "all":
            allowed_special = self.special_tokens_set
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - set(allowed_special)
        for token in disallowed_special:
            if token in text:
                raise ValueError(
                    f"Encountered text corresponding to disallowed special token {token!r}.\n"
                    "If you want this text to be encoded as a special token, pass it to `allowed_special`, "
                    f"e.g. `allowed_special={{{token!r}, ...}}`.\n"
                    "If you want this text to be encoded as normal text, disable the check for this token "
                    f"by passing `disallowed_special=(enc.special_tokens_set - {{{token!r}}})`.\n"
                    "To disable this check for all special tokens, pass `disallowed_special=()`.\n")
        if not allowed_special:
            return self._native_encode(text, 1, [])
        ids = [self._special_tokens[t] for t in allowed_special if t in self._special_tokens]
        return self._native_encode(text, 2, ids)

    def _native_encode(self, text, mode, ids):
        native = self._tokenizer._native
        try:
            return native.encode(text, False, mode, ids)
        except (TypeError, UnicodeEncodeError):
            return native.encode(clean_surrogates(text), False, mode, ids)

    def encode_single_token(self, text_or_bytes) -> int:
        if isinstance(text_or_bytes, str):
            if text_or_bytes in self._special_tokens:
                return self._special_tokens[text_or_bytes]
            text_or_bytes = text_or_bytes.encode("utf-8")
        from .convert.tiktoken_file import BYTE_CHARS

        tid = self._tokenizer.token_to_id("".join(BYTE_CHARS[b] for b in text_or_bytes))
        if tid is None:
            raise KeyError(text_or_bytes)
        return tid

    # --- decoding -----------------------------------------------------
    @functools.cached_property
    def _byte_of_char(self):
        from .convert.tiktoken_file import BYTE_CHARS

        return {c: b for b, c in BYTE_CHARS.items()}

    def decode_single_token_bytes(self, token: int) -> bytes:
        s = self._tokenizer.id_to_token(token)
        if s is None:
            raise KeyError(token)
        if self._tokenizer.is_special(token):
            return s.encode("utf-8")
        table = self._byte_of_char
        return bytes(table[c] for c in s)

    def decode_tokens_bytes(self, tokens) -> list:
        return [self.decode_single_token_bytes(t) for t in tokens]

    def decode_bytes(self, tokens) -> bytes:
        return b"".join(self.decode_tokens_bytes(tokens))

    def decode(self, tokens, errors: str = "replace") -> str:
        if errors == "replace":
            for t in tokens:
                if not 0 <= t <= self.max_token_value:
                    raise KeyError(t)
            return self._tokenizer.decode(tokens)
        return self.decode_bytes(tokens).decode("utf-8", errors=errors)
