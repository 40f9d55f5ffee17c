"""Shard files: writing a shard's .bin/.idx, its done-marker, and checking
that a finished shard is intact.

Protocol, in this order: write .bin and .idx under temp names and fsync
them; rename both into place and fsync the folder; then write the
done-marker (itself atomically) holding both files' sizes and sha256. A
shard counts as done only when its marker exists, names this job's
fingerprint and matches the files, so a crash at any point leaves a shard
that is redone, never one that is trusted.
"""

import hashlib
import json
import os

import numpy as np

from .errors import CorpusError
from .fsutil import fsync_dir, remove_if_exists, sha256_file, temp_name, write_json_atomic


def shard_paths(out_dir: str, name: str) -> dict:
    """Paths of a shard's data, index and done-marker."""
    base = os.path.join(out_dir, name)
    return {"bin": base + ".bin", "idx": base + ".idx", "done": base + ".done"}


class ShardWriter:
    """Streams one shard's token ids to temp files; :meth:`commit` makes
    them durable and visible, :meth:`abort` removes them."""

    def __init__(self, out_dir: str, name: str, dtype: str):
        self.paths = shard_paths(out_dir, name)
        self.dtype = np.dtype(dtype)
        self.limit = np.iinfo(self.dtype).max
        self.tmp_bin = temp_name(self.paths["bin"])
        self.tmp_idx = temp_name(self.paths["idx"])
        self._bin = open(self.tmp_bin, "wb")
        self._hash = hashlib.sha256()
        self._offsets = [0]
        self.tokens = 0

    def add(self, docs_ids: list) -> None:
        """Appends documents, each a list of ids, in order."""
        flat = []
        for ids in docs_ids:
            flat += ids
            self._offsets.append(self._offsets[-1] + len(ids))
        arr = np.array(flat, dtype=np.int64)
        if arr.size and (arr.max() > self.limit or arr.min() < 0):
            raise CorpusError(f"token id {int(arr.max())} does not fit {self.dtype.name}")
        data = arr.astype(self.dtype.newbyteorder("<")).tobytes()
        self._bin.write(data)
        self._hash.update(data)
        self.tokens += arr.size

    @property
    def documents(self) -> int:
        """Documents written so far."""
        return len(self._offsets) - 1

    def commit(self) -> dict:
        """Makes the shard durable and returns its file descriptions
        (sizes and sha256) for the marker and the manifest."""
        self._bin.flush()
        os.fsync(self._bin.fileno())
        self._bin.close()
        idx = np.asarray(self._offsets, dtype="<u8").tobytes()
        with open(self.tmp_idx, "wb") as f:
            f.write(idx)
            f.flush()
            os.fsync(f.fileno())
        os.replace(self.tmp_bin, self.paths["bin"])
        os.replace(self.tmp_idx, self.paths["idx"])
        fsync_dir(os.path.dirname(os.path.abspath(self.paths["bin"])))
        return {
            "bin": {"file": os.path.basename(self.paths["bin"]), "size": self.tokens * self.dtype.itemsize,
                    "sha256": self._hash.hexdigest()},
            "idx": {"file": os.path.basename(self.paths["idx"]), "size": len(idx),
                    "sha256": hashlib.sha256(idx).hexdigest()},
        }

    def abort(self) -> None:
        """Closes and removes the temp files (after an error)."""
        self._bin.close()
        for p in (self.tmp_bin, self.tmp_idx):
            remove_if_exists(p)


def write_marker(out_dir: str, name: str, result: dict) -> None:
    """Writes the done-marker last, once the data files are in place."""
    write_json_atomic(shard_paths(out_dir, name)["done"], result)


def read_verified_marker(out_dir: str, name: str, fingerprint: str):
    """The marker of a finished shard of this job whose files match its
    sizes and sha256, or None when the shard must be (re)done."""
    paths = shard_paths(out_dir, name)
    try:
        with open(paths["done"], encoding="utf-8") as f:
            marker = json.load(f)
        if marker.get("fingerprint") != fingerprint:
            return None
        for kind in ("bin", "idx"):
            want = marker[kind]
            if os.path.getsize(paths[kind]) != want["size"] or sha256_file(paths[kind]) != want["sha256"]:
                return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return marker


def remove_shard(out_dir: str, name: str) -> None:
    """Removes a shard's marker first (so it stops counting as done), then
    its data files."""
    paths = shard_paths(out_dir, name)
    for kind in ("done", "bin", "idx"):
        remove_if_exists(paths[kind])
