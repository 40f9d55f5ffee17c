"""tiktoken rank files (.tiktoken) -> spec.

tiktoken's BPE merges the adjacent pair whose concatenation has the lowest
rank, and looks up a whole pre-token first; the spec says so with
`mtok_rank_merges` and `ignore_merges`. The split regex keeps only matched
text (tiktoken drops what no alternative matches): Split(invert, Removed).
"""

import base64

from ..errors import FormatError
from .openai_encodings import BY_HASH, ENCODING_SPECS


def _byte_chars():
    """GPT-2's byte -> printable character table (as the ByteLevel stage)."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    table, extra = {}, 256
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(extra)
            extra += 1
    return table


BYTE_CHARS = _byte_chars()


def parse_ranks(data: bytes, where: str) -> dict:
    """Parses "base64 rank" lines into {token bytes: rank}."""
    ranks = {}
    for lineno, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(f"{where}:{lineno}: expected 'base64 rank'")
        try:
            token = base64.b64decode(parts[0], validate=True)
            rank = int(parts[1])
        except ValueError as e:
            raise FormatError(f"{where}:{lineno}: {e}") from None
        if token in ranks:
            raise FormatError(f"{where}:{lineno}: token listed twice")
        ranks[token] = rank
    if not ranks:
        raise FormatError(f"{where}: no ranks")
    return ranks


def looks_like_tiktoken(head: bytes) -> bool:
    line = head.split(b"\n", 1)[0].split()
    if len(line) != 2 or not line[1].isdigit():
        return False
    try:
        base64.b64decode(line[0], validate=True)
    except ValueError:
        return False
    return True


def spec_from_ranks(ranks: dict, pattern: str, special_tokens: dict, name: str = "") -> dict:
    """Builds the spec for a tiktoken Encoding."""
    if not pattern:
        raise FormatError("a tiktoken encoding needs its split pattern (pat_str)")
    for b in range(256):
        if bytes([b]) not in ranks:
            raise FormatError(f"tiktoken ranks lack the single byte {b}; byte-level BPE needs all 256")
    vocab = {"".join(BYTE_CHARS[b] for b in token): rank for token, rank in ranks.items()}
    return _spec({"type": "BPE", "vocab": vocab, "merges": [], "mtok_rank_merges": True, "ignore_merges": True,
                  "dropout": None, "unk_token": None, "byte_fallback": False}, pattern, special_tokens, name)


def _spec(model: dict, pattern: str, special_tokens: dict, name: str) -> dict:
    added = [
        {"id": i, "content": s, "special": True, "lstrip": False, "rstrip": False,
         "single_word": False, "normalized": False}
        for s, i in sorted(special_tokens.items(), key=lambda kv: kv[1])
    ]
    return {
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Removed", "invert": True,
             "mtok_dialect": "rust"},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        ]},
        "model": model,
        "decoder": {"type": "ByteLevel"},
        "post_processor": None,
        "added_tokens": added,
        "mtok": {"tiktoken_name": name, "eos_token": "<|endoftext|>" if "<|endoftext|>" in special_tokens else ""},
    }


def load_tiktoken_file(path: str, pattern: str = None, special_tokens: dict = None, native: bool = False) -> dict:
    """A .tiktoken file -> spec. Known OpenAI files are recognised by hash;
    any other file needs `pattern` (and usually `special_tokens`). With
    `native`, the model section may come written by the native reader (for
    the .mtok writer only)."""
    import hashlib  # here, not for every format's detection: it loads OpenSSL

    with open(path, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    name = BY_HASH.get(digest, "")
    if pattern is None:
        if not name:
            raise FormatError(
                f"{path}: not a known OpenAI rank file (sha256 {digest[:16]}...); "
                "pass the split pattern explicitly (--pattern)")
        _, _, pattern, specials, _ = ENCODING_SPECS[name]
        if special_tokens is None:
            special_tokens = specials
    from .. import _native

    section = _native.tiktoken_model_section(data) if native else None
    if section is not None:  # the native reader's model section (None: the Python reader's errors)
        return _spec({"type": "BPE", "mtok_section": section}, pattern, special_tokens or {}, name)
    return spec_from_ranks(parse_ranks(data, path), pattern, special_tokens or {}, name)
