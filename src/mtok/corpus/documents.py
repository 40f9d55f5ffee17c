"""Reading the documents of a shard back from its input pieces.

Each worker reads only its own shard's byte ranges, so shards can be
processed anywhere that sees the same files.
"""

import json

from .errors import RecordError


class RecordLog:
    """Malformed and empty records met while reading a shard. With
    ``on_error="fail"`` the first malformed record raises instead."""

    # Keeps markers and the manifest small on a badly broken input.
    MAX_ITEMS = 1000

    def __init__(self, on_error: str):
        self.on_error = on_error
        self.errors = 0
        self.items = []
        self.empty = 0

    def error(self, where: str, message: str) -> None:
        """Counts (skip) or raises (fail) a malformed record."""
        if self.on_error == "fail":
            raise RecordError(where, message)
        self.errors += 1
        if len(self.items) < self.MAX_ITEMS:
            self.items.append(f"{where}: {message}")


def _read_range(path: str, start: int, end: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    if len(data) != end - start:
        raise RecordError(f"{path}:{start}", "file is shorter than when the job was planned")
    return data


def _lines(data: bytes):
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    return lines


def _utf8(raw: bytes, where: str, log: RecordLog):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        log.error(where, f"invalid UTF-8 at byte {e.start} of the line")
        return None


def _text_lines(path, piece, log):
    for i, raw in enumerate(_lines(_read_range(path, piece.start, piece.end))):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw:
            log.empty += 1
            continue
        text = _utf8(raw, f"{path}:{piece.first_line + i}", log)
        if text is not None:
            yield text


def _text_file(path, piece, log):
    data = _read_range(path, piece.start, piece.end)
    if not data:
        log.empty += 1
        return
    try:
        yield data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        log.error(f"{path}:{line}", f"invalid UTF-8 at byte {e.start} of the file")


def _jsonl(path, piece, field, log):
    for i, raw in enumerate(_lines(_read_range(path, piece.start, piece.end))):
        where = f"{path}:{piece.first_line + i}"
        if not raw.strip():
            log.empty += 1
            continue
        line = _utf8(raw, where, log)
        if line is None:
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            log.error(where, f"invalid JSON at column {e.colno}: {e.msg}")
            continue
        if not isinstance(record, dict):
            log.error(where, f"expected a JSON object, got {type(record).__name__}")
        elif field not in record:
            log.error(where, f"no field {field!r}")
        elif not isinstance(record[field], str):
            log.error(where, f"field {field!r} is {type(record[field]).__name__}, not a string")
        else:
            yield record[field]


def _parquet(path, piece, field, log):
    from .parquet import read_rows

    for i, value in enumerate(read_rows(path, field, piece.start, piece.end)):
        if value is None:
            log.error(f"{path}: row {piece.start + i + 1}", f"field {field!r} is null")
        else:
            yield value


def iter_documents(shard, options, log: RecordLog):
    """The documents of `shard` in input order, as str. Empty text lines and
    blank JSONL lines are counted in `log.empty`; malformed records go to
    `log` (counted, or raised with ``on_error="fail"``)."""
    for piece in shard.pieces:
        if piece.format == "parquet":
            yield from _parquet(piece.path, piece, options.field, log)
        elif piece.format == "jsonl":
            yield from _jsonl(piece.path, piece, options.field, log)
        elif options.doc_per == "file":
            yield from _text_file(piece.path, piece, log)
        else:
            yield from _text_lines(piece.path, piece, log)
