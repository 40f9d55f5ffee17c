"""Splitting the input into deterministic shards.

The planner reads every input file once, in input order, hashing it and
finding record boundaries. A shard is a run of consecutive records that
may span files; it closes at the first record boundary once it holds
`--shard-size` records or bytes. The same inputs and size always give the
same shards, which is what makes a job resumable and lets any engine run
any shard.
"""

import dataclasses
import hashlib
import os

from .errors import CorpusError
from .inputs import Source

_BLOCK = 8 * 2**20


@dataclasses.dataclass(frozen=True)
class Piece:
    """A run of records of one source. For text and JSONL `start`/`end` are
    byte offsets at line starts and `first_line` is the 1-based line number
    at `start`; for Parquet they are row numbers."""

    source: int
    start: int
    end: int
    first_line: int = 1
    # The file itself, so a worker needs nothing but its shard.
    path: str = ""
    format: str = "text"


@dataclasses.dataclass(frozen=True)
class Shard:
    """One unit of work and of output: shard-NNNNN.bin/.idx."""

    index: int
    pieces: tuple
    records: int
    nbytes: int

    @property
    def name(self) -> str:
        """The file stem of the shard's outputs."""
        return f"shard-{self.index:05d}"


class _Planner:
    def __init__(self, size):
        self.size = size
        self.shards = []
        self.pieces = []
        self.records = 0
        self.nbytes = 0

    # -- shard bookkeeping ---------------------------------------------
    def _full(self) -> bool:
        held = self.records if self.size.unit == "records" else self.nbytes
        return held >= self.size.count

    def _add_piece(self, index: int, src: Source, start: int, end: int, first_line: int) -> None:
        if end > start:
            # Absolute: a Dask worker's working folder is not the client's.
            self.pieces.append(Piece(index, start, end, first_line, os.path.abspath(src.path), src.format))

    def _close(self) -> None:
        if self.pieces:
            self.shards.append(Shard(len(self.shards), tuple(self.pieces), self.records, self.nbytes))
        self.pieces, self.records, self.nbytes = [], 0, 0

    def finish(self) -> list:
        """Closes the last shard; returns all shards in order."""
        self._close()
        return self.shards

    # -- line-oriented files (text per line, JSONL) ----------------------
    def _cut_in(self, block: bytes, pos: int) -> int:
        """Offset just past the newline that fills the current shard, or -1
        when the shard does not fill inside this block."""
        if self.size.unit == "records":
            need = self.size.count - self.records
            if block.count(b"\n", pos) < need:
                return -1
            for _ in range(need):
                pos = block.find(b"\n", pos) + 1
            return pos
        missing = max(self.size.count - self.nbytes, 1)
        start = pos + missing - 1
        if start >= len(block):
            return -1
        nl = block.find(b"\n", start)
        return -1 if nl < 0 else nl + 1

    def add_lines(self, index: int, src: Source) -> tuple:
        """Plans a file with one record per line; returns its size and hash."""
        path = src.path
        digest = hashlib.sha256()
        piece_start, piece_line, line, offset = 0, 1, 1, 0
        last = b""
        with open(path, "rb") as f:
            while True:
                block = f.read(_BLOCK)
                if not block:
                    break
                digest.update(block)
                pos = 0
                while pos < len(block):
                    cut = self._cut_in(block, pos)
                    end = len(block) if cut < 0 else cut
                    lines = block.count(b"\n", pos, end)
                    self.records += lines
                    self.nbytes += end - pos
                    line += lines
                    pos = end
                    if cut >= 0:
                        self._add_piece(index, src, piece_start, offset + cut, piece_line)
                        self._close()
                        piece_start, piece_line = offset + cut, line
                last = block[-1:]
                offset += len(block)
        if offset > piece_start:
            if last != b"\n":
                self.records += 1  # a last line without a newline is a record too
            self._add_piece(index, src, piece_start, offset, piece_line)
            if self._full():
                self._close()
        return offset, digest.hexdigest()

    # -- one record per file ---------------------------------------------
    def add_file(self, index: int, src: Source) -> tuple:
        """Plans a file that is one document."""
        path = src.path
        digest = hashlib.sha256()
        size = 0
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(_BLOCK), b""):
                digest.update(block)
                size += len(block)
        self._add_piece(index, src, 0, size, 1)
        self.records += 1
        self.nbytes += size
        if self._full():
            self._close()
        return size, digest.hexdigest()

    # -- Parquet -----------------------------------------------------------
    def add_parquet(self, index: int, src: Source, field: str) -> tuple:
        """Plans a Parquet file by rows. Byte sizes come from the column's
        uncompressed size in the footer, so in byte mode shards close at
        row-group boundaries."""
        from .parquet import column_layout

        path = src.path
        groups = column_layout(path, field)
        row = 0
        for rows, nbytes in groups:
            end = row + rows
            while row < end:
                take = end - row
                if self.size.unit == "records":
                    take = min(take, self.size.count - self.records)
                self._add_piece(index, src, row, row + take, row + 1)
                self.records += take
                self.nbytes += nbytes * take // rows
                row += take
                if self._full():
                    self._close()
        size, digest = 0, hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(_BLOCK), b""):
                digest.update(block)
                size += len(block)
        return size, digest.hexdigest()


def plan_shards(sources: list, options) -> tuple:
    """(sources with size and sha256 filled in, shards)."""
    planner = _Planner(options.shard_size)
    filled = []
    for i, src in enumerate(sources):
        try:
            if src.format == "parquet":
                size, digest = planner.add_parquet(i, src, options.field)
            elif src.format == "text" and options.doc_per == "file":
                size, digest = planner.add_file(i, src)
            else:
                size, digest = planner.add_lines(i, src)
        except OSError as e:
            raise CorpusError(f"{src.path}: cannot read: {e.strerror or e}") from None
        filled.append(dataclasses.replace(src, size=size, sha256=digest))
    return filled, planner.finish()
