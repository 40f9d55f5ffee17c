"""Added tokens with HF tokenizers' flags, and HF's rules for adding them.

`merge_added_tokens` applies ``Tokenizer.add_tokens`` / ``add_special_tokens``
to a spec's ``added_tokens`` list exactly as HF's AddedVocabulary does: a
token already in the vocabulary keeps its id, a new one takes the next id
past the model vocabulary and the added tokens, and re-adding a token with
the same content and flags is ignored (and not counted).
"""

_FLAGS = ("single_word", "lstrip", "rstrip", "normalized", "special")
_FIELDS = ("content",) + _FLAGS


class AddedToken:
    """A token matched in the text before the model runs, with HF's flags:
    `single_word` (only as a whole word), `lstrip` / `rstrip` (takes the
    spaces on that side), `normalized` (matched in the normalized text)
    and `special` (skipped by ``decode(skip_special_tokens=True)``).

    `normalized` left unset means ``not special``, as in HF, also when
    add_special_tokens makes the token special.

    Immutable, compared and hashed by its fields. (Written out, not a
    frozen dataclass: importing dataclasses, and inspect with it, was 1 MB
    of a loaded tokenizer's resident memory and a sixth of `import mtok`.)"""

    __match_args__ = _FIELDS

    def __init__(self, content: str, single_word: bool = False, lstrip: bool = False, rstrip: bool = False,
                 normalized: bool = None, special: bool = False):
        if not isinstance(content, str):
            raise TypeError(f"AddedToken content must be a str, not {type(content).__name__}")
        for name, value in zip(_FIELDS, (content, single_word, lstrip, rstrip, normalized, special)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field {name!r}")

    def _key(self) -> tuple:
        return tuple(getattr(self, f) for f in _FIELDS)  # `normalized` as read: unset is `not special`

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        if name == "normalized" and value is None:
            return not object.__getattribute__(self, "special")
        return value

    def __str__(self) -> str:
        return self.content

    def __repr__(self) -> str:
        # HF's repr: transformers compares added tokens by it.
        return (f'AddedToken("{self.content}", rstrip={self.rstrip}, lstrip={self.lstrip}, '
                f"single_word={self.single_word}, normalized={self.normalized}, special={self.special})")

    def __getstate__(self) -> dict:
        """The tokenizer.json entry (without id), as HF's AddedToken gives."""
        return {"content": self.content, **{f: getattr(self, f) for f in _FLAGS}}

    def __setstate__(self, state):
        for key, value in state.items():
            object.__setattr__(self, key, value)


def coerce(token, special: bool) -> AddedToken:
    """An AddedToken from a str, an mtok AddedToken or HF's (any object with
    `content` and the flags). `special` is True for add_special_tokens,
    which marks every token special; HF then re-derives an unset
    `normalized` from it."""
    if isinstance(token, str):
        return AddedToken(token, special=special)
    if not hasattr(token, "content"):
        raise TypeError(f"expected a str or an AddedToken, not {type(token).__name__}")
    if special and not token.special:
        if isinstance(token, AddedToken):  # keeps an unset `normalized` unset
            token = AddedToken(token.content, token.single_word, token.lstrip, token.rstrip,
                               object.__getattribute__(token, "normalized"), True)
        else:
            # HF marks the caller's own object special (a copy would lose
            # whether `normalized` was set).
            token.special = True
    return AddedToken(str(token.content), **{f: bool(getattr(token, f)) for f in _FLAGS})


def entry_of(token_id: int, token: AddedToken) -> dict:
    return {"id": token_id, **token.__getstate__()}


def merge_added_tokens(entries: list, tokens, special: bool, token_to_id, vocab_size: int):
    """(new sorted entries, number added): HF's add_tokens over the spec's
    ``added_tokens`` `entries`. `token_to_id` looks a string up in the
    added tokens and the model vocabulary; `vocab_size` is the model's."""
    by_id = {e["id"]: dict(e) for e in entries}
    by_content = {e["content"]: e["id"] for e in entries}
    added = 0
    for raw in tokens:
        token = coerce(raw, special)
        if not token.content or any(_same(e, token) for e in by_id.values()):
            continue
        new_id = by_content.get(token.content)
        if new_id is None:
            new_id = token_to_id(token.content)
        if new_id is None:
            top = max(by_content.values(), default=None)
            if top is None:
                new_id = vocab_size
            else:
                new_id = top + 1 if top >= vocab_size or vocab_size == 0 else vocab_size
        by_content[token.content] = new_id
        by_id[new_id] = entry_of(new_id, token)
        added += 1
    return [by_id[i] for i in sorted(by_id)], added


def _same(entry: dict, token: AddedToken) -> bool:
    return entry["content"] == token.content and all(
        bool(entry.get(f, f == "normalized" and not entry.get("special"))) == getattr(token, f) for f in _FLAGS)
