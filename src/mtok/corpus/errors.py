"""Errors of corpus tokenization, both subclasses of :class:`mtok.MtokError`."""

from ..errors import MtokError


class CorpusError(MtokError):
    """A corpus job cannot run or an output folder is not a valid dataset."""


class RecordError(CorpusError):
    """One input record is malformed: bad JSON, a missing or non-string
    field, or invalid UTF-8. `where` is ``path:line`` (or ``path:row N`` for
    Parquet), so the message points at the record."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message

    def __reduce__(self):
        # Keeps the two fields when the error crosses a process boundary.
        return (RecordError, (self.where, self.message))
