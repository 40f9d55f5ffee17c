"""MNN's legacy tokenizer.txt (types 0-3) -> spec.

The file is read line by line (layout: docs/legacy_txt.md); every error
names the file and line. What a type does not record comes from
LegacyOptions and is never guessed: see specs.py for how each type
becomes a spec.
"""

import base64
import binascii
from dataclasses import dataclass, field

from ...errors import FormatError
from .options import LegacyOptions
from .specs import BUILDERS
from ..sp_merges import BYTE, NORMAL, SP_SPACE

SENTENCEPIECE, TIKTOKEN, BERT, HUGGINGFACE = range(4)


@dataclass
class LegacyFile:
    """A parsed tokenizer.txt. `tokens[id]` is the token text (bytes for
    type 1) or None for an id no line holds; `pieces` (type 0) holds
    (text, score, piece type); `merges` (type 3) holds (left, right, line)."""

    where: str
    legacy_type: int
    special_ids: list
    stop_ids: list
    prefix_ids: list
    tokens: list = field(default_factory=list)
    pieces: list = field(default_factory=list)
    merges: list = field(default_factory=list)

    def fail(self, line: int, message: str):
        raise FormatError(f"{self.where}:{line}: {message}")


class _Lines:
    def __init__(self, data: bytes, where: str):
        self.where = where
        self.lines = data.split(b"\n")
        if self.lines and self.lines[-1] == b"":
            self.lines.pop()  # the final newline
        self.n = 0  # 1-based number of the last line taken

    def fail(self, message: str, line: int = None):
        raise FormatError(f"{self.where}:{line or self.n}: {message}")

    def take(self, what: str) -> bytes:
        if self.n >= len(self.lines):
            raise FormatError(f"{self.where}:{self.n + 1}: the file ends where {what} was expected")
        self.n += 1
        return self.lines[self.n - 1]

    def ints(self, what: str, count: int = None) -> list:
        line = self.take(what)
        parts = line.split()
        if any(not p.isdigit() for p in parts) or line.strip(b" ") != line.rstrip(b" ") or b"\t" in line:
            self.fail(f"{what}: expected decimal numbers separated by spaces, got {line[:60]!r}")
        if count is not None and len(parts) != count:
            self.fail(f"{what}: expected {count} numbers, got {len(parts)}")
        return [int(p) for p in parts]

    def text(self, raw: bytes, what: str) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            self.fail(f"{what} is not UTF-8 ({e.reason} at byte {e.start})")

    def b64(self, raw: bytes, what: str) -> bytes:
        try:
            return base64.b64decode(raw, validate=True)
        except (binascii.Error, ValueError) as e:
            self.fail(f"{what}: invalid base64 ({e})")


def _header(lines: _Lines):
    first = lines.take("the header")
    parts = first.split(b" ")
    if len(parts) != 2 or parts[0] != b"430" or parts[1] not in (b"0", b"1", b"2", b"3"):
        lines.fail(f"first line must be '430 <type>' with type 0-3, got {first[:40]!r}")
    kind = int(parts[1])
    counts = lines.ints("the counts line (special stop prefix)", 3)
    ids = lines.ints("the special/stop/prefix ids line")
    if len(ids) != sum(counts):
        lines.fail(f"the ids line holds {len(ids)} ids, the counts line says {sum(counts)}")
    a, b = counts[0], counts[0] + counts[1]
    return kind, ids[:a], ids[a:b], ids[b:]


def _sentencepiece(lines: _Lines, f: LegacyFile, count: int) -> None:
    for i in range(count):
        raw = lines.take(f"piece {i}")
        parts = raw.split(b" ")
        if len(parts) != 3:
            lines.fail(f"piece {i}: expected 'base64 score type', got {raw[:60]!r}")
        text = lines.text(lines.b64(parts[0], f"piece {i}"), f"piece {i}")
        if not text:
            lines.fail(f"piece {i} is empty")
        try:
            score = float(parts[1])
        except ValueError:
            lines.fail(f"piece {i}: score {parts[1][:20]!r} is not a number")
        if score != score:
            lines.fail(f"piece {i}: score is NaN")
        if not parts[2].isdigit() or not NORMAL <= int(parts[2]) <= BYTE:
            lines.fail(f"piece {i}: type must be 1-6 (NORMAL..BYTE), got {parts[2][:10]!r}")
        # MNN's exporter writes U+2581 as a space; a SentencePiece piece never holds a space.
        f.pieces.append((text.replace(" ", SP_SPACE), score, int(parts[2])))
        f.tokens.append(f.pieces[-1][0])


def _token_lines(lines: _Lines, f: LegacyFile, count: int) -> None:
    """Types 1 and 2: one base64 token per line; line number = id."""
    for i in range(count):
        raw = lines.take(f"token {i}")
        token = lines.b64(raw, f"token {i}")
        if f.legacy_type == BERT:
            token = lines.text(token, f"token {i}")
        f.tokens.append(token if raw else None)  # an empty line: no token has this id


def _huggingface(lines: _Lines, f: LegacyFile, count: int, merge_count: int) -> None:
    for i in range(count):
        raw = lines.take(f"token {i}")
        f.tokens.append(lines.text(raw, f"token {i}") if raw else None)
    for i in range(merge_count):
        raw = lines.take(f"merge {i}")
        text = lines.text(raw, f"merge {i}")
        if i == 0 and text.startswith("#version"):
            continue  # MNN's exporter copies merges.txt, header line included
        parts = text.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            lines.fail(f"merge {i}: expected two tokens separated by one space, got {text[:60]!r}")
        f.merges.append((parts[0], parts[1], lines.n))


def parse_mnn_txt(data: bytes, where: str) -> LegacyFile:
    lines = _Lines(data, where)
    kind, special, stop, prefix = _header(lines)
    f = LegacyFile(where, kind, special, stop, prefix)
    if kind == HUGGINGFACE:
        count, merge_count = lines.ints("the vocab and merge counts line", 2)
        _huggingface(lines, f, count, merge_count)
    else:
        count, = lines.ints("the vocab count line", 1)
        (_sentencepiece if kind == SENTENCEPIECE else _token_lines)(lines, f, count)
    if lines.n < len(lines.lines):
        lines.fail(f"unexpected line after the {count} vocab lines the file declares", lines.n + 1)
    for name, ids, line in (("special", special, 3), ("stop", stop, 3), ("prefix", prefix, 3)):
        for i in ids:
            if i >= len(f.tokens) or f.tokens[i] is None:
                f.fail(line, f"{name} id {i} has no token in the vocab")
    return f


def spec_from_mnn_txt(data: bytes, where: str = "tokenizer.txt", **options) -> dict:
    """Parses a legacy file and builds its spec with the given options
    (pattern, normalizer, ignore_merges, lowercase, strip_accents, sp_model)."""
    f = parse_mnn_txt(data, where)
    return BUILDERS[f.legacy_type](f, LegacyOptions.from_kwargs(**options))


def load_mnn_txt(path: str, **options) -> dict:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise FormatError(f"{path}: {e.strerror}") from None
    return spec_from_mnn_txt(data, path, **options)
