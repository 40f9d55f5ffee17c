"""tiktoken's Encoding on the mtok core, with tiktoken's methods, errors,
private attributes and pickling."""

import functools
import re

from ..tokenizer import Tokenizer, default_threads
from .._native import AddedTokens
from ..text import retry_clean, with_clean_text
from .byte_pair import byte_pair_encode
from .unstable import encode_with_unstable, last_piece_length

# The added-token modes tiktoken's calls use: special-token text as
# ordinary text, or only the allowed special tokens (aliases: a module
# global is the cheapest lookup on the hot path).
_ORDINARY, _ALLOWED = AddedTokens.NONE, AddedTokens.ALLOWED
_NO_IDS = ()  # the allowed ids of the modes that take none


class Encoding:
    """A byte-level BPE encoding: tiktoken's API over an mtok Tokenizer."""

    def __init__(self, name, *, pat_str, mergeable_ranks, special_tokens, explicit_n_vocab=None):
        """As tiktoken.Encoding: `mergeable_ranks` maps token bytes to ranks,
        `special_tokens` special token text to ids."""
        from ..convert.tiktoken_file import spec_from_ranks
        from ..convert.export import export_mtok

        self._setup(name, pat_str, special_tokens,
                    max(max(mergeable_ranks.values()), max(special_tokens.values(), default=0)))
        if explicit_n_vocab:
            assert len(mergeable_ranks) + len(special_tokens) == explicit_n_vocab
            assert self.max_token_value == explicit_n_vocab - 1
        self._ranks = mergeable_ranks
        self._tokenizer = Tokenizer.from_bytes(
            export_mtok(spec_from_ranks(mergeable_ranks, pat_str, special_tokens, name)))

    @classmethod
    def _from_tokenizer(cls, name, tokenizer, pat_str, special_tokens, load_ranks):
        """An encoding over a loaded tokenizer; `load_ranks()` gives the
        mergeable ranks when something asks for them."""
        enc = cls.__new__(cls)
        # Ranks may skip ids (p50k_base has no rank 50256), so the largest id
        # can lie beyond vocab_size - 1 by up to the number of specials.
        n = tokenizer.vocab_size
        top = max(i for i in range(n - 1, n + len(special_tokens) + 1) if tokenizer.id_to_token(i) is not None)
        enc._setup(name, pat_str, special_tokens, max(top, max(special_tokens.values(), default=0)))
        enc._ranks = None
        enc._load_ranks = load_ranks
        enc._tokenizer = tokenizer
        return enc

    def _setup(self, name, pat_str, special_tokens, max_token_value):
        self.name = name
        self._pat_str = pat_str
        self._special_tokens = special_tokens
        self.max_token_value = max_token_value
        self._special_token_values = set(special_tokens.values())

    @property
    def _mergeable_ranks(self) -> dict:
        if self._ranks is None:
            self._ranks = self._load_ranks()
        return self._ranks

    def __repr__(self):
        return f"<Encoding {self.name!r}>"

    # --- encoding -----------------------------------------------------
    def encode_ordinary(self, text: str) -> list:
        """Encodes text, treating special-token text as ordinary text."""
        # _native_encode inlined: on short texts a Python frame is a
        # noticeable part of the call.
        native = self._tokenizer._native
        try:
            return native.encode(text, False, _ORDINARY, _NO_IDS)
        except UnicodeEncodeError:
            return retry_clean(native.encode, text, False, _ORDINARY, _NO_IDS)

    def encode(self, text: str, *, allowed_special=frozenset(), disallowed_special="all") -> list:
        """Encodes text. Special-token text raises ValueError unless it is in
        `allowed_special` (then it becomes the special token) or left out of
        `disallowed_special` (then it is ordinary text)."""
        return self._native_encode(text, *self._special_mode(text, allowed_special, disallowed_special))

    def encode_to_numpy(self, text: str, *, allowed_special=frozenset(), disallowed_special="all"):
        """encode() as a 1-D numpy uint32 array, made from the native ids in
        one copy (no Python int per id)."""
        mode, ids = self._special_mode(text, allowed_special, disallowed_special)
        return with_clean_text(self._tokenizer._native.encode_numpy, text, False, mode, ids)

    def encode_ordinary_batch(self, text, *, num_threads: int = 8) -> list:
        """encode_ordinary() over a list, on native threads."""
        return self._native_batch(list(text), _ORDINARY, _NO_IDS, num_threads)

    def encode_batch(self, text, *, num_threads: int = 8, allowed_special=frozenset(),
                     disallowed_special="all") -> list:
        """encode() over a list, on native threads."""
        texts = list(text)
        allowed, disallowed = self._resolve_special(allowed_special, disallowed_special)
        if disallowed:
            pattern = _special_token_regex(frozenset(disallowed))
            for t in texts:
                _check_disallowed(pattern, t)
        return self._native_batch(texts, _ALLOWED, self._allowed_ids(allowed), num_threads)

    def encode_with_unstable(self, text: str, *, allowed_special=frozenset(),
                             disallowed_special="all", num_threads: int = 8) -> tuple:
        """(stable_tokens, completions), as tiktoken: `stable_tokens` encode a
        prefix of `text` that appended text cannot change; each completion
        is a token list that may follow them once text is appended (their
        bytes start with the rest of `text`). Completions are distinct, in no
        set order (tiktoken's come from a hash set). Special tokens are
        handled as in :meth:`encode`; the re-tokenizing runs on `num_threads`
        native threads."""
        _, ids = self._special_mode(text, allowed_special, disallowed_special)
        return encode_with_unstable(self, text, ids, num_threads or default_threads())

    def encode_single_token(self, text_or_bytes) -> int:
        """The token whose bytes are exactly `text_or_bytes` (special tokens
        included); KeyError when there is none."""
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        token = self._byte_token_ids.get(bytes(text_or_bytes))
        if token is None:
            raise KeyError(text_or_bytes)
        return token

    # --- decoding -----------------------------------------------------
    def decode_bytes(self, tokens) -> bytes:
        """The bytes of `tokens`; KeyError for an id that is not a token."""
        return b"".join(self.decode_tokens_bytes(tokens))

    def decode(self, tokens, errors: str = "replace") -> str:
        """The text of `tokens` (invalid UTF-8 handled by `errors`)."""
        return self.decode_bytes(tokens).decode("utf-8", errors=errors)

    def decode_single_token_bytes(self, token: int) -> bytes:
        """The bytes of one token; KeyError when it is not a token."""
        table = self._token_bytes
        if isinstance(token, int) and 0 <= token < len(table) and table[token] is not None:
            return table[token]
        raise KeyError(token)

    def decode_tokens_bytes(self, tokens) -> list:
        """The bytes of each token."""
        table = self._token_bytes
        try:
            out = [table[t] if t >= 0 else None for t in tokens]
        except (IndexError, TypeError):
            out = [None]
        if None in out:  # raise tiktoken's KeyError for the first bad id
            return [self.decode_single_token_bytes(t) for t in tokens]
        return out

    def decode_with_offsets(self, tokens) -> tuple:
        """(text, offsets): the offset of each token is the index of the
        first character holding one of its bytes. Raises on invalid UTF-8."""
        parts = self.decode_tokens_bytes(tokens)
        offsets, chars = [], 0
        for part in parts:
            # A token starting with a continuation byte belongs to the
            # character that started in the previous token.
            starts_inside = bool(part) and 0x80 <= part[0] < 0xC0
            offsets.append(max(0, chars - starts_inside))
            chars += sum(1 for b in part if not 0x80 <= b < 0xC0)
        return b"".join(parts).decode("utf-8", errors="strict"), offsets

    def decode_batch(self, batch, *, errors: str = "replace", num_threads: int = 8) -> list:
        """decode() over a list of token lists: the bytes on `num_threads`
        native threads (GIL released once), then decoded with `errors`."""
        return [data.decode("utf-8", errors=errors)
                for data in self.decode_bytes_batch(batch, num_threads=num_threads)]

    def decode_bytes_batch(self, batch, *, num_threads: int = 8) -> list:
        """decode_bytes() over a list of token lists, on `num_threads` native
        threads with the GIL released once."""
        batch = list(batch)
        try:
            return self._tokenizer._native.decode_bytes_batch(batch, num_threads or default_threads())
        except (KeyError, TypeError):  # an id that is no token: tiktoken's error, row by row
            return [self.decode_bytes(tokens) for tokens in batch]

    # --- miscellaneous ------------------------------------------------
    def token_byte_values(self) -> list:
        """The bytes of every mergeable token, sorted."""
        return sorted(self._mergeable_ranks)

    @property
    def eot_token(self) -> int:
        return self._special_tokens["<|endoftext|>"]

    @functools.cached_property
    def special_tokens_set(self) -> set:
        return set(self._special_tokens)

    def is_special_token(self, token: int) -> bool:
        assert isinstance(token, int)
        return token in self._special_token_values

    @property
    def n_vocab(self) -> int:
        """max_token_value + 1 (tiktoken's name, kept for compatibility)."""
        return self.max_token_value + 1

    # --- private helpers tiktoken's tests use --------------------------
    def _encode_single_piece(self, text_or_bytes) -> list:
        """Byte-pair encodes the bytes without the regex split."""
        if isinstance(text_or_bytes, str):
            text_or_bytes = text_or_bytes.encode("utf-8")
        return byte_pair_encode(bytes(text_or_bytes), self._mergeable_ranks)

    def _encode_only_native_bpe(self, text: str) -> list:
        """The regex split in Python (needs the `regex` module), then BPE."""
        import regex

        out = []
        for piece in regex.findall(regex.compile(self._pat_str), text):
            out += self._encode_single_piece(piece)
        return out

    def _encode_bytes(self, text: bytes) -> list:
        """Encodes bytes that may not be UTF-8, as tiktoken: the valid prefix
        is encoded, then its last piece is merged again with the rest."""
        try:
            return self.encode_ordinary(text.decode("utf-8"))
        except UnicodeDecodeError as e:
            valid, rest = text[:e.start], text[e.start:]
        enc = self._tokenizer._native.encode_full(
            valid.decode("utf-8"), None, add_special_tokens=False, config=None, details=True,
            added_mode=_ORDINARY)
        tokens = list(enc.ids)
        last = last_piece_length(tokens, enc.word_ids, (), self._all_space)
        unstable = self.decode_bytes(tokens[len(tokens) - last:]) + rest
        tokens = tokens[:len(tokens) - last]
        if unstable:
            ranks = self._mergeable_ranks
            tokens += [ranks[unstable]] if unstable in ranks else byte_pair_encode(unstable, ranks)
        return tokens

    def _all_space(self, token) -> bool:
        return all(b in b" \n\t" for b in self.decode_single_token_bytes(token))

    # --- pickling (built-in encodings by name, as tiktoken) -----------
    # The one import circle the package keeps: mtok.encodings makes these
    # objects, and a built-in one pickles as its name there. Both imports
    # are lazy, so each module loads without the other.
    def __getstate__(self):
        from ..encodings import ENCODINGS

        if self is ENCODINGS.get(self.name):
            return self.name
        return {"name": self.name, "pat_str": self._pat_str,
                "mergeable_ranks": self._mergeable_ranks, "special_tokens": self._special_tokens}

    def __setstate__(self, value):
        from ..encodings import get_encoding

        if isinstance(value, str):
            self.__dict__ = get_encoding(value).__dict__
            return
        self.__init__(**value)

    # --- internals ----------------------------------------------------
    def _resolve_special(self, allowed_special, disallowed_special):
        if allowed_special == "all":
            allowed_special = self.special_tokens_set
        if disallowed_special == "all":
            disallowed_special = self.special_tokens_set - allowed_special
        return allowed_special, disallowed_special

    def _special_mode(self, text, allowed_special, disallowed_special):
        allowed, disallowed = self._resolve_special(allowed_special, disallowed_special)
        if disallowed:
            _check_disallowed(_special_token_regex(frozenset(disallowed)), text)
        return _ALLOWED, self._allowed_ids(allowed)

    def _allowed_ids(self, allowed) -> list:
        return [self._special_tokens[t] for t in allowed if t in self._special_tokens]

    def _native_encode(self, text, mode, ids):
        native = self._tokenizer._native
        try:
            return native.encode(text, False, mode, ids)
        except UnicodeEncodeError:
            return retry_clean(native.encode, text, False, mode, ids)

    def _native_batch(self, texts, mode, ids, num_threads):
        native = self._tokenizer._native
        threads = num_threads or default_threads()
        return with_clean_text(native.encode_batch, texts, None, add_special_tokens=False, config=None,
                               threads=threads, added_mode=mode, allowed_ids=ids)

    @functools.cached_property
    def _token_bytes(self) -> list:
        """Bytes of every token id (None for ids that are not tokens)."""
        from ..convert.tiktoken_file import BYTE_CHARS

        table = [None] * (self.max_token_value + 1)
        # Byte-level characters back to the bytes they stand for, via latin-1.
        to_latin1 = {ord(c): b for b, c in BYTE_CHARS.items()}
        tok = self._tokenizer
        for i in range(len(table)):
            s = None if i in self._special_token_values else tok.id_to_token(i)
            if s is not None:
                table[i] = s.translate(to_latin1).encode("latin-1")
        for text, i in self._special_tokens.items():
            table[i] = text.encode("utf-8")
        return table

    @functools.cached_property
    def _sorted_token_bytes(self) -> list:
        """The bytes of every mergeable token, sorted (for prefix search)."""
        return sorted(self._mergeable_ranks)

    @functools.cached_property
    def _byte_token_ids(self) -> dict:
        """Token id of every token's bytes (special tokens after ranks, as tiktoken)."""
        ids = {b: i for i, b in enumerate(self._token_bytes) if b is not None and i not in self._special_token_values}
        for text, i in self._special_tokens.items():
            ids.setdefault(text.encode("utf-8"), i)
        return ids


@functools.lru_cache(maxsize=128)
def _special_token_regex(tokens: frozenset):
    return re.compile("(" + "|".join(re.escape(t) for t in tokens) + ")")


def _check_disallowed(pattern, text):
    match = pattern.search(text)
    if match:
        token = match.group()
        raise ValueError(
            f"Encountered text corresponding to disallowed special token {token!r}.\n"
            "If you want this text to be encoded as a special token, "
            f"pass it to `allowed_special`, e.g. `allowed_special={{{token!r}, ...}}`.\n"
            "If you want this text to be encoded as normal text, disable the check for this token "
            f"by passing `disallowed_special=(enc.special_tokens_set - {{{token!r}}})`.\n"
            "To disable this check for all special tokens, pass `disallowed_special=()`.\n")
