"""Reading a finished corpus: ``mtok.corpus.open(OUTDIR)``."""

import os

import numpy as np

from .errors import CorpusError
from .fsutil import sha256_file
from .manifest import load_manifest


def _map(path: str, dtype, count: int):
    if count == 0:
        return np.empty(0, dtype=dtype)  # numpy cannot map an empty file
    # A plain ndarray over the map, so documents come out as ndarray views.
    return np.asarray(np.memmap(path, dtype=dtype, mode="r", shape=(count,)))


class Dataset:
    """The documents of a tokenized corpus, in input order.

    ``len(ds)`` documents; ``ds[i]`` the ids of document i, a read-only
    numpy view into a memory-mapped shard; iteration yields each document;
    ``ds.num_tokens`` the total. Only the manifest and the offset indexes
    are read up front.
    """

    def __init__(self, path, verify: bool = False):
        self.path = os.fspath(path)
        self.manifest = load_manifest(self.path)
        m = self.manifest
        if m.get("dtype") not in ("uint16", "uint32"):
            raise CorpusError(f"{self.path}: unsupported dtype {m.get('dtype')!r}")
        self.dtype = np.dtype(m["dtype"]).newbyteorder("<")
        self._data, self._idx = [], []
        starts = [0]
        for shard in m["shards"]:
            data, idx = self._open_shard(shard, verify)
            self._data.append(data)
            self._idx.append(idx)
            starts.append(starts[-1] + shard["documents"])
        self._starts = np.asarray(starts, dtype=np.int64)
        if starts[-1] != m["num_documents"]:
            raise CorpusError(f"{self.path}: shards hold {starts[-1]} documents, manifest says {m['num_documents']}")
        if sum(len(d) for d in self._data) != m["num_tokens"]:
            raise CorpusError(f"{self.path}: shards hold a different token count than the manifest")

    def _open_shard(self, shard: dict, verify: bool):
        paths = {}
        for kind in ("bin", "idx"):
            want = shard[kind]
            path = os.path.join(self.path, want["file"])
            try:
                size = os.path.getsize(path)
            except OSError:
                raise CorpusError(f"{path}: missing (listed in the manifest)") from None
            if size != want["size"]:
                raise CorpusError(f"{path}: {size} bytes, manifest says {want['size']}")
            if verify and sha256_file(path) != want["sha256"]:
                raise CorpusError(f"{path}: sha256 differs from the manifest")
            paths[kind] = path
        ndocs, ntok = shard["documents"], shard["tokens"]
        if shard["idx"]["size"] != 8 * (ndocs + 1) or shard["bin"]["size"] != self.dtype.itemsize * ntok:
            raise CorpusError(f"{self.path}: sizes of {shard['name']} disagree with its counts")
        idx = np.memmap(paths["idx"], dtype="<u8", mode="r", shape=(ndocs + 1,))
        # The full monotonic scan reads the whole index, so only with verify.
        if idx[0] != 0 or idx[-1] != ntok or (verify and ndocs and np.any(idx[1:] < idx[:-1])):
            raise CorpusError(f"{paths['idx']}: offsets are not a valid index of {ntok} tokens")
        return _map(paths["bin"], self.dtype, ntok), idx

    def __len__(self) -> int:
        return int(self._starts[-1])

    @property
    def num_tokens(self) -> int:
        """Tokens in all documents."""
        return int(self.manifest["num_tokens"])

    @property
    def tokenizer_sha256(self) -> str:
        """sha256 of the .mtok bytes of the tokenizer that made the corpus."""
        return self.manifest["tokenizer"]["sha256"]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = int(i) if isinstance(i, (int, np.integer)) else i
        if not isinstance(i, int):
            raise TypeError(f"document index must be an int or a slice, not {type(i).__name__}")
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"document {i} out of range ({n} documents)")
        shard = int(np.searchsorted(self._starts, i, side="right")) - 1
        local = i - int(self._starts[shard])
        idx = self._idx[shard]
        return self._data[shard][int(idx[local]):int(idx[local + 1])]

    def __iter__(self):
        for data, idx in zip(self._data, self._idx):
            for k in range(len(idx) - 1):
                yield data[int(idx[k]):int(idx[k + 1])]

    def document_lengths(self) -> np.ndarray:
        """Tokens per document, in order."""
        if not self._idx:
            return np.empty(0, dtype=np.int64)
        return np.concatenate([np.diff(idx).astype(np.int64) for idx in self._idx])

    def __repr__(self) -> str:
        return f"<mtok.corpus.Dataset {self.path!r}: {len(self)} documents, {self.num_tokens} tokens>"


def open(path, verify: bool = False) -> Dataset:  # noqa: A001 - the documented name
    """Opens a finished corpus folder. Checks the manifest and every
    shard's sizes and index bounds; with `verify` also every file's sha256
    and that every index is non-decreasing."""
    return Dataset(path, verify=verify)
