"""The settings of a corpus job, and parsing of ``--shard-size``."""

import dataclasses
import re

from .errors import CorpusError

_UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12,
          "KI": 2**10, "MI": 2**20, "GI": 2**30, "TI": 2**40}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]I?)?(B)?\s*$", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class ShardSize:
    """How much input one shard holds: `count` records, or at least `count`
    bytes (a shard ends at the first record boundary past the limit)."""

    count: int
    unit: str  # "records" or "bytes"

    def __str__(self) -> str:
        return f"{self.count} {self.unit}"


def parse_shard_size(text: str) -> ShardSize:
    """``"10000"`` is 10000 records (lines, files or rows); ``"64MB"``,
    ``"1.5GiB"`` or ``"4096B"`` are input bytes."""
    m = _SIZE.match(str(text))
    if not m:
        raise CorpusError(f"--shard-size {text!r}: expected a record count (10000) "
                          "or a byte size (64MB, 1GiB, 4096B)")
    number, prefix, byte = m.group(1), (m.group(2) or "").upper(), m.group(3)
    if not prefix and not byte:
        if "." in number:
            raise CorpusError(f"--shard-size {text!r}: a record count must be an integer")
        count, unit = int(number), "records"
    else:
        count, unit = int(float(number) * _UNITS[prefix]), "bytes"
    if count < 1:
        raise CorpusError(f"--shard-size {text!r} must be at least 1")
    return ShardSize(count, unit)


@dataclasses.dataclass(frozen=True)
class JobOptions:
    """What decides the output bytes of a job (plus `on_error`, which only
    decides whether a malformed record stops it)."""

    input_format: str = "auto"      # auto, text, jsonl or parquet
    doc_per: str = "line"           # text only: a document per line or per file
    field: str = "text"             # jsonl and parquet: the text field
    append_eos: bool = False
    add_special_tokens: bool = False
    shard_size: ShardSize = ShardSize(32 * 10**6, "bytes")
    on_error: str = "fail"          # fail or skip
    batch_bytes: int = 4 * 2**20    # text per encode_batch call inside a shard

    def __post_init__(self):
        if self.input_format not in ("auto", "text", "jsonl", "parquet"):
            raise CorpusError(f"unknown input format {self.input_format!r}")
        if self.doc_per not in ("line", "file"):
            raise CorpusError(f"--doc-per must be 'line' or 'file', not {self.doc_per!r}")
        if self.on_error not in ("fail", "skip"):
            raise CorpusError(f"--on-error must be 'fail' or 'skip', not {self.on_error!r}")

    def identity(self) -> dict:
        """The options that change output bytes, for the job fingerprint."""
        return {"doc_per": self.doc_per, "field": self.field, "append_eos": self.append_eos,
                "add_special_tokens": self.add_special_tokens,
                "shard_size": {"count": self.shard_size.count, "unit": self.shard_size.unit}}
