"""Input files: expanding the command line's paths and telling formats apart.

Input order is the order of the arguments; a folder contributes its files
sorted by path, so the same arguments always give the same documents in the
same order.
"""

import dataclasses
import os

from .errors import CorpusError

_JSONL_EXT = (".jsonl", ".ndjson", ".json")
_PARQUET_EXT = (".parquet", ".pq")


@dataclasses.dataclass(frozen=True)
class Source:
    """One input file: its path as given (or found in a folder), its format,
    and its size and sha256 as seen when the job was planned."""

    path: str
    format: str
    size: int = 0
    sha256: str = ""

    def describe(self) -> dict:
        """The manifest entry of this file."""
        return {"path": self.path, "format": self.format, "size": self.size, "sha256": self.sha256}


def detect_format(path: str, requested: str) -> str:
    """`requested` unless it is ``auto``; then by extension: .jsonl/.ndjson/
    .json are JSON Lines, .parquet/.pq Parquet, anything else plain text."""
    if requested != "auto":
        return requested
    lower = path.lower()
    if lower.endswith(_JSONL_EXT):
        return "jsonl"
    if lower.endswith(_PARQUET_EXT):
        return "parquet"
    return "text"


def _walk(folder: str) -> list:
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [os.path.join(root, f) for f in files if not f.startswith(".")]
    return sorted(found)


def expand_inputs(paths, requested_format: str = "auto") -> list:
    """The :class:`Source` list for the given files and folders (hidden
    files inside folders are ignored). Size and hash are filled in later,
    by the planner, which reads every file once."""
    if not paths:
        raise CorpusError("no input files given")
    sources = []
    for given in paths:
        given = os.fspath(given)
        if os.path.isdir(given):
            files = _walk(given)
            if not files:
                raise CorpusError(f"{given}: folder holds no input files")
        elif os.path.isfile(given):
            files = [given]
        else:
            raise CorpusError(f"{given}: no such file or folder")
        for path in files:
            fmt = detect_format(path, requested_format)
            if fmt == "parquet":
                _require_pyarrow(path)
            sources.append(Source(os.path.normpath(path), fmt))
    return sources


def _require_pyarrow(path: str) -> None:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise CorpusError(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
