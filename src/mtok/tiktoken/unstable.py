"""tiktoken's encode_with_unstable: the tokens of a text that no appended
text can change, and every token sequence the rest may become once more
text follows (as tiktoken's `_encode_unstable_native` computes them)."""

import bisect

from .._native import AddedTokens
from ..text import with_clean_text
from .byte_pair import byte_pair_encode

# Unicode White_Space, which Rust's char::is_whitespace tests (str.isspace
# also accepts U+001C..U+001F).
_WHITE_SPACE = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                         "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def last_piece_length(tokens, words, specials, all_space) -> int:
    """How many trailing tokens appended text may change: those of the last
    regex piece (none after a special token), extended back over tokens made
    only of spaces, tabs and newlines, since patterns like cl100k's
    ``\\s*[\\r\\n]+`` can join such pieces once more text arrives."""
    if not tokens or tokens[-1] in specials:
        return 0
    n = 1
    while n < len(tokens) and words[-1 - n] == words[-1]:
        n += 1
    if all_space(tokens[-n]):
        while n < len(tokens) and all_space(tokens[-n - 1]):
            n += 1
    return n


def _starting_with(sorted_bytes, prefix):
    """The entries of a sorted list of bytes that start with `prefix`."""
    i = bisect.bisect_left(sorted_bytes, prefix)
    while i < len(sorted_bytes) and sorted_bytes[i].startswith(prefix):
        yield sorted_bytes[i]
        i += 1


def _last_char(data: bytes):
    """The last character of UTF-8 bytes and its length, or (None, 1) when
    they do not end in a whole character."""
    for size in range(1, min(4, len(data)) + 1):
        try:
            return data[-size:].decode("utf-8"), size
        except UnicodeDecodeError:
            continue
    return None, 1


def encode_with_unstable(enc, text, allowed_ids, num_threads):
    """(stable tokens, completions) of `text` for a mtok.tiktoken Encoding;
    special tokens in `allowed_ids` are matched (disallowed ones are checked
    by the caller)."""
    native = enc._tokenizer._native
    encoding = with_clean_text(native.encode_full, text, None, add_special_tokens=False, config=None,
                               details=True, added_mode=AddedTokens.ALLOWED, allowed_ids=allowed_ids)
    tokens = list(encoding.ids)
    n = last_piece_length(tokens, encoding.word_ids, enc._special_token_values, enc._all_space)
    if n == 0:
        return tokens, []
    unstable = enc.decode_bytes(tokens[-n:])
    stable = tokens[:-n]
    ranks, sorted_bytes, table = enc._mergeable_ranks, enc._sorted_token_bytes, enc._token_bytes
    completions = {}  # insertion-ordered set of tuples

    # Single tokens that start with all of the unstable bytes.
    for token in _starting_with(sorted_bytes, unstable):
        completions[(ranks[token],)] = None

    # A token straddling position i: the bytes before it, then any token that
    # starts with the rest, tokenized again as a whole (regex split included).
    candidates = [unstable[:i] + token for i in range(1, len(unstable))
                  for token in _starting_with(sorted_bytes, unstable[i:])]
    texts, positions, encoded = [], [], [None] * len(candidates)
    for k, candidate in enumerate(candidates):
        try:
            texts.append(candidate.decode("utf-8"))
            positions.append(k)
        except UnicodeDecodeError:
            encoded[k] = byte_pair_encode(candidate, ranks)
    if texts:
        for k, ids in zip(positions, native.encode_batch(
                texts, None, add_special_tokens=False, config=None, threads=num_threads,
                added_mode=AddedTokens.NONE)):
            encoded[k] = ids
    for ids in encoded:
        seq, length = [], 0
        for token in ids:  # only as many tokens as cover the unstable bytes
            seq.append(token)
            length += len(table[token])
            if length >= len(unstable):
                break
        completions[tuple(seq)] = None

    # Whitespace at the end may split off once text follows (gpt2's
    # \s+(?!\S)), making tokens possible that the merges above hide.
    if len(unstable) > 1:
        char, size = _last_char(unstable)
        if char is not None and char in _WHITE_SPACE and size < len(unstable):
            split = byte_pair_encode(unstable[:-size], ranks) + byte_pair_encode(unstable[-size:], ranks)
            completions[tuple(split)] = None
    return stable, [list(c) for c in completions]
