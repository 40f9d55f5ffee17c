"""HF tokenizers' ``Encoding`` interface over an mtok Encoding: the fields,
plus the position lookups transformers' BatchEncoding calls
(token_to_word, char_to_token, word_to_tokens...), with HF's semantics."""


def _field(name):
    """A read-only list field of the wrapped Encoding, fetched from it once."""

    def get(self) -> list:
        return self._get(name)

    get.__name__ = name
    return property(get)


class HFEncoding:
    """One encoded input, as ``tokenizers.Encoding``."""

    __slots__ = ("_e", "_seq", "_cache")

    def __init__(self, encoding):
        self._e = encoding
        self._seq = None
        self._cache = {}

    def _get(self, name):
        value = self._cache.get(name)
        if value is None:
            value = self._cache[name] = getattr(self._e, name)
        return value

    ids = _field("ids")
    type_ids = _field("type_ids")
    tokens = _field("tokens")
    offsets = _field("offsets")
    attention_mask = _field("attention_mask")
    special_tokens_mask = _field("special_tokens_mask")
    word_ids = _field("word_ids")
    words = word_ids
    sequence_ids = _field("sequence_ids")

    @property
    def n_sequences(self) -> int:
        return self._e.n_sequences

    @property
    def overflowing(self) -> list:
        return [HFEncoding(o) for o in self._e.overflowing]

    def __len__(self) -> int:
        return len(self._e)

    def __repr__(self) -> str:
        return repr(self._e)

    # --- position lookups (HF's Encoding methods) -------------------------
    def _ranges(self):
        """{sequence: (start, end)} set by the post-processor; {} when the
        whole encoding is one sequence."""
        if self._seq is None:
            seq = self.sequence_ids
            ranges = {}
            if None in seq or self.n_sequences > 1:
                for i, s in enumerate(seq):
                    if s is not None:
                        start, _ = ranges.get(s, (i, i))
                        ranges[s] = (start, i + 1)
            self._seq = ranges
        return self._seq

    def _range(self, sequence_index):
        return self._ranges().get(sequence_index, (0, len(self)))

    def token_to_sequence(self, token_index: int):
        if token_index > len(self):
            return None
        ranges = self._ranges()
        if not ranges:
            return 0
        for s, (start, end) in ranges.items():
            if start <= token_index < end:
                return s
        return None

    def token_to_word(self, token_index: int):
        if self.token_to_sequence(token_index) is None or token_index >= len(self):
            return None
        return self.word_ids[token_index]

    def token_to_chars(self, token_index: int):
        if self.token_to_sequence(token_index) is None or token_index >= len(self):
            return None
        return tuple(self.offsets[token_index])

    def word_to_tokens(self, word_index: int, sequence_index: int = 0):
        start, end = self._range(sequence_index)
        first = last = None
        for i in range(start, end):
            w = self.word_ids[i]
            if w is not None and w > word_index:
                break
            if w == word_index:
                first = i if first is None else first
                last = i + 1
        return None if first is None else (first, last)

    def word_to_chars(self, word_index: int, sequence_index: int = 0):
        span = self.word_to_tokens(word_index, sequence_index)
        if span is None:
            return None
        return (self.offsets[span[0]][0], self.offsets[span[1] - 1][1])

    def char_to_token(self, char_pos: int, sequence_index: int = 0):
        start, end = self._range(sequence_index)
        for i in range(start, end):
            a, b = self.offsets[i]
            if a <= char_pos < b:
                return i
        return None

    def char_to_word(self, char_pos: int, sequence_index: int = 0):
        token = self.char_to_token(char_pos, sequence_index)
        return None if token is None else self.token_to_word(token)


class LazyEncodings:
    """The Encodings of a batch encoded on the columns path, made only when
    a BatchEncoding method asks for one (tokens(), word_ids()...)."""

    __slots__ = ("_make", "_items")

    def __init__(self, make):
        self._make = make  # () -> list of HFEncoding
        self._items = None

    def _all(self):
        if self._items is None:
            self._items = self._make()
        return self._items

    def __getitem__(self, index):
        return self._all()[index]

    def __len__(self):
        return len(self._all())

    def __iter__(self):
        return iter(self._all())

    def __bool__(self):
        return True

    def __reduce__(self):
        return (list, (self._all(),))
