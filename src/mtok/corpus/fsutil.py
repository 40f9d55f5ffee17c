"""Durable file writes: temp name, fsync, rename, fsync the folder."""

import hashlib
import json
import os
import uuid


def temp_name(path: str) -> str:
    """A temp name beside `path`, unique per writer so that two attempts at
    the same shard (a retried task) never write into one file."""
    return f"{path}.tmp.{os.getpid()}.{uuid.uuid4().hex[:8]}"


def fsync_dir(folder: str) -> None:
    """Makes renames inside `folder` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_json_atomic(path: str, value) -> None:
    """Writes `value` as JSON so that `path` holds either the old or the new
    document, never a torn one."""
    tmp = temp_name(path)
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(os.path.dirname(os.path.abspath(path)))


def sha256_file(path: str) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(4 * 2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def remove_if_exists(path: str) -> None:
    """Deletes a file that may already be gone."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
