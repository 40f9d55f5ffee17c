"""The on-disk cache of converted tokenizers: a tokenizer.json, .model or
.tiktoken file is converted once, and later loads map the cached .mtok.

Layout of the cache folder (``$MTOK_CACHE_DIR``, default
``$XDG_CACHE_HOME/mtok`` or ``~/.cache/mtok``; ``MTOK_CACHE_DIR=off``
switches the cache off), flat (making subfolders was a large part of a
small source's first load)::

    <key>.<digest>.mtok  the converted file, named with the digest of its bytes
    <id>.source.json     a source's files and their stat -> its key, and
                         the entry file it gave and that file's stat

The key is the digest of the converter's version, the conversion options
and the digest of every file conversion reads (the source, and
tokenizer_config.json, special_tokens_map.json and chat templates beside
it). Digests are the native core's (``_native.digest``: 64 bits, and
nothing to import). The key finds a cache entry, it guards
nothing: a file made to collide with another could only come from whoever
supplies the tokenizer files in the first place. Hashing a large source
still costs a first load, so a later load takes the key from its record
when every file's (size, mtime, ctime, inode, device) is what it was when
the key was computed, and the record was written more than two seconds
after the files last changed (so that an edit within one timestamp tick of
the hashing is not missed).

An entry is used only if its stat is the one its record holds (written
with it), or else its bytes have the digest in its name (a copied,
touched, truncated or overwritten entry, or one whose record is lost; a
check for damage, not for an attacker who can write the folder);
the .mtok loader then validates its structure. Anything else is rebuilt.
A first load writes the entry, and its record when the files are large
(RECORD_MIN_BYTES; else the next load does). Files are
written under a temporary name and renamed, so concurrent writers never
leave a torn file. A cache folder that cannot be
written (read-only, full, missing) costs the conversion, with one warning.
The entries are bounded: past ``$MTOK_CACHE_MAX_MB`` (default 2048) the
oldest are removed when a new one is written.
"""

import functools
import json
import os
import re
import time
import warnings

from . import _native
from .errors import CacheWarning, FormatError

ENV_DIR = "MTOK_CACHE_DIR"
ENV_MAX_MB = "MTOK_CACHE_MAX_MB"
DEFAULT_MAX_MB = 2048
# Files beside a source that conversion reads (chat templates, special tokens).
SIDE_FILES = ("tokenizer_config.json", "special_tokens_map.json", "chat_template.jinja")
SETTLE_NS = 2_000_000_000  # coarsest file timestamp granularity (FAT: 2 s)
ENTRY_SUFFIX = ".mtok"
RECORD_SUFFIX = ".source.json"
# The folder may be one the user keeps other files in (their own .mtok
# files too): prune and clear touch only names of these shapes.
_ENTRY_NAME = re.compile(r"[0-9a-f]{16}\.[0-9a-f]{16}\.mtok")
_RECORD_NAME = re.compile(r"[0-9a-f]{16}\.source\.json")
# Where versions before the flat layout kept entries and records (clear() empties them).
OLD_SUBFOLDERS = ("entries", "sources")
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_warned = set()


def cache_dir():
    """The cache folder, or None when ``MTOK_CACHE_DIR=off``."""
    value = os.environ.get(ENV_DIR)
    if value and value.strip().lower() in ("off", "0", "none", "false"):
        return None
    if value:
        return os.path.abspath(value)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mtok")


def max_bytes() -> int:
    value = os.environ.get(ENV_MAX_MB)
    try:
        return int(float(value) * 1e6) if value else DEFAULT_MAX_MB * 1_000_000
    except ValueError:
        raise FormatError(f"{ENV_MAX_MB}={value!r} is not a number") from None


@functools.lru_cache(maxsize=None)
def converter_fingerprint(native_only: bool = False) -> str:
    """Identifies the code that turns a source into .mtok bytes: the package
    version and the size and mtime of the native module and, unless
    `native_only` (a conversion the native core does whole, which no Python
    module shapes), of the converter's and writer's modules (stat only:
    reading them would cost the budget of a cached load)."""
    from . import __version__

    if native_only:
        return _native.files_fingerprint(__version__ + ":native", [_native.__file__], [], ".py")
    files = [_native.__file__, os.path.join(_PACKAGE_DIR, "chat", "files.py")]
    folders = [os.path.join(_PACKAGE_DIR, f) for f in ("convert", "format")]  # subpackages too
    return _native.files_fingerprint(__version__, files, folders, ".py")


def _stat(path):
    """What a change to a file changes, or None when it is absent."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def _digest(path, data: bytes = None) -> str:
    """The named digest of a file's content, or of `data` when its bytes
    were read already (the name: a change of algorithm never reuses a key)."""
    return "h64:" + (_native.digest_file(path) if data is None else _native.digest(data))


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _create_temp(folder: str):
    """(fd, path) of a new file under a unique temporary name in `folder`,
    made here, not by tempfile (whose import costs a first load several ms:
    random, shutil...)."""
    while True:
        tmp = os.path.join(folder, f".tmp-{os.getpid()}-{os.urandom(6).hex()}")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600), tmp
        except FileExistsError:
            continue


def _write_atomic(path: str, data) -> None:
    """Writes `data` (bytes-like) under a unique temporary name in the same
    folder, made when missing, then renames. Plain os calls: file objects
    and makedirs' checks were a tenth of a small .model's whole load."""
    folder = os.path.dirname(path)
    try:
        fd, tmp = _create_temp(folder)
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = _create_temp(folder)
    try:
        try:
            view = memoryview(data).cast("B")
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _warn(folder: str, action: str, error: OSError) -> None:
    if folder in _warned:
        return
    _warned.add(folder)
    reason = error.strerror or str(error)
    warnings.warn(f"mtok cache {folder}: cannot {action} ({reason}); tokenizers are converted "
                  f"at every load (set {ENV_DIR}=off to silence this)", CacheWarning, stacklevel=4)


def source_files(source: str) -> list:
    """The source and the files beside it that conversion may read."""
    folder = os.path.dirname(source)
    files = [source] + [os.path.join(folder, n) for n in SIDE_FILES]
    extra = os.path.join(folder, "additional_chat_templates")
    if os.path.isdir(extra):
        files += [os.path.join(extra, n) for n in sorted(os.listdir(extra)) if n.endswith(".jinja")]
    return files


class Lookup:
    """Where a load finds its entry: the key, and the record (``.source.json``)
    that remembers which entry file the key last gave and its stat."""

    def __init__(self, record_path: str, files: list, stats, key: str, record, source_bytes=None):
        self.record_path = record_path
        self.files = files
        self.stats = stats  # None: a file changed while it was hashed (no record is written)
        self.key = key
        self.record = record  # the trusted record, or None
        self.source_bytes = source_bytes  # the source as hashed, when read whole for the converter


def _record_path(folder: str, tag: str) -> str:
    return os.path.join(folder, _native.digest(tag.encode()) + RECORD_SUFFIX)


def _read_whole(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def source_lookup(folder: str, source: str, options: dict, read_source: bool = False,
                  native_only: bool = False) -> Lookup:
    """The lookup of converting `source` with `options` (see the module
    docstring for the stat fast path). `read_source`: when the key must be
    computed, read the source whole and keep its bytes on the lookup, for a
    converter that takes them (read once, not once to hash and once to
    convert). `native_only`: the converter is the native core alone (see
    converter_fingerprint)."""
    source = os.path.abspath(source)
    files = source_files(source)
    stats = [_stat(p) for p in files]
    tag = json.dumps([converter_fingerprint(native_only), source, sorted(options.items())])
    record_path = _record_path(folder, tag)
    record = _read_json(record_path)
    if record and record.get("files") == [[p, s] for p, s in zip(files, stats)] \
            and isinstance(record.get("key"), str) and _settled(record.get("recorded"), stats):
        return Lookup(record_path, files, stats, record["key"], record)
    data = _read_whole(source) if read_source and stats[0] else None
    contents = [data] + [None] * (len(files) - 1)
    material = [tag] + [f"{os.path.basename(p)}:{st[0]}:{_digest(p, c)}" if st else f"{os.path.basename(p)}:-"
                        for p, st, c in zip(files, stats, contents)]
    key = _native.digest("\n".join(material).encode())
    # The stat of the files as hashed: one that changed meanwhile gives no record, never a wrong key.
    return Lookup(record_path, files, stats if [_stat(p) for p in files] == stats else None, key, None, data)


def source_key(folder: str, source: str, options: dict, native_only: bool = False) -> str:
    """The cache key of converting `source` with `options`."""
    return source_lookup(folder, source, options, native_only=native_only).key


def key_lookup(folder: str, key: str) -> Lookup:
    """The lookup of an entry known by its key alone (a built-in encoding)."""
    record_path = _record_path(folder, "key:" + key)
    record = _read_json(record_path)
    return Lookup(record_path, [], [], key, record if record and record.get("key") == key else None)


def _settled(recorded, stats) -> bool:
    if not isinstance(recorded, int):
        return False
    latest = max((max(s[1], s[2]) for s in stats if s), default=0)
    return recorded - latest > SETTLE_NS


def entry_path(folder: str, key: str, digest: str) -> str:
    """An entry's file: its key, then the digest of its bytes."""
    return os.path.join(folder, f"{key}.{digest}{ENTRY_SUFFIX}")


def _size(data) -> int:
    return memoryview(data).nbytes


def _recorded_entry(folder: str, lk: Lookup):
    """The entry the record names when its stat is the one recorded (the
    file as written, or as last checked), else None."""
    name = lk.record.get("entry") if lk.record else None
    if not isinstance(name, str) or not name.startswith(lk.key + ".") or not name.endswith(ENTRY_SUFFIX) \
            or os.sep in name:
        return None
    path = os.path.join(folder, name)
    try:
        st = _stat(path)
    except OSError:  # the folder is not one (a file in its place, no permission)
        return None
    return path if st is not None and st == lk.record.get("entry_stat") else None


def lookup(folder: str, key: str):
    """The path of an entry for `key` whose bytes have the digest its name
    gives, or None."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None
    prefix = key + "."
    for name in names:
        if name.startswith(prefix) and name.endswith(ENTRY_SUFFIX):
            path = os.path.join(folder, name)
            try:
                if _native.digest_file(path) == name[len(prefix):-len(ENTRY_SUFFIX)]:
                    return path
            except OSError:
                continue
    return None


def store(folder: str, key: str, data) -> str:
    """Writes an entry; its path, or None (with one warning) when the
    folder cannot be written."""
    path = entry_path(folder, key, _native.digest(data))
    try:
        _write_atomic(path, data)
    except OSError as e:
        _warn(folder, "write a converted tokenizer", e)
        return None
    prune(folder, max_bytes(), keep=path)
    return path


def _remember(lk: Lookup, path: str, source: str) -> None:
    """Writes the record naming the entry at `path` with its stat now
    (best effort: without it a later load hashes and looks up again)."""
    if lk.stats is None:
        return
    try:
        st = _stat(path)
        name = os.path.basename(path)
        if lk.record and lk.record.get("entry") == name and lk.record.get("entry_stat") == st:
            return
        record = {"files": [[p, s] for p, s in zip(lk.files, lk.stats)], "key": lk.key,
                  "entry": name, "entry_stat": st, "source": source,
                  "recorded": time.time_ns()}
        _write_atomic(lk.record_path, json.dumps(record).encode())
    except OSError:
        pass


# A first load writes the record of its entry only when the files a later
# load would hash without it (the sources and the entry) are this large;
# below, the record costs more than the hashing it spares, and the first
# later load, which finds the entry by its digest, writes it.
RECORD_MIN_BYTES = 2 << 20


def load(folder: str, lk: Lookup, build, *, source: str, tokenizer):
    """The tokenizer for `lk`: its cached entry mapped in place, or
    ``build(lk.source_bytes)``'s .mtok bytes, stored for next time (see
    RECORD_MIN_BYTES for when its record is written). No failure of the
    cache changes what is loaded: an entry that does not load is rebuilt.
    `tokenizer` is the class to load with (mtok.Tokenizer, passed in: the
    cache sits below the class that uses it, so it does not import it)."""
    Tokenizer = tokenizer
    path = _recorded_entry(folder, lk) or lookup(folder, lk.key)
    if path is not None:
        try:
            tok = Tokenizer._from_mtok_file(path)
            _remember(lk, path, source)
            return tok
        except FormatError:
            pass  # damaged in a way the digest did not see: rebuilt below
    data = build(lk.source_bytes)
    lk.source_bytes = None
    path = store(folder, lk.key, data)
    if path is not None:
        try:
            tok = Tokenizer._from_mtok_file(path)
            if _size(data) + sum(st[0] for st in lk.stats or () if st) >= RECORD_MIN_BYTES:
                _remember(lk, path, source)
            return tok
        except FormatError:
            try:  # the conversion's own bytes do not load: from_bytes reports why
                os.unlink(path)
            except OSError:
                pass
    return Tokenizer.from_bytes(data)


# A conversion whose file is smaller leaves too little freed heap for
# malloc_trim's walk of it to pay (RSS after such loads: bench/README).
TRIM_MIN_BYTES = 4 << 20


def _trim_after(size: int) -> None:
    """Returns what a conversion freed to the system when it was large
    (glibc keeps it otherwise); `size`: its file's."""
    if size >= TRIM_MIN_BYTES:
        _native.trim_heap()


def load_source(source: str, options: dict, build, *, tokenizer, enabled: bool = True,
                read_source: bool = False, native_only: bool = False):
    """The tokenizer converted from a source file by ``build(source_bytes)``,
    through the cache unless it is off (`enabled` False or
    ``MTOK_CACHE_DIR=off``). `source_bytes` is the source as read to hash it
    when `read_source` is set (see source_lookup), else None.
    `native_only`: `build` is the native core alone, so the key names its
    code only; such a build raises rather than fall back to Python code."""
    folder = cache_dir() if enabled else None
    if folder is None:
        data = build(None)
        tok, size = tokenizer.from_bytes(data), _size(data)
        del data
        _trim_after(size)
        return tok
    try:
        lk = source_lookup(folder, source, options, read_source, native_only)
    except OSError as e:
        raise FormatError(f"{e.filename or source}: {e.strerror or e}") from None
    built = []  # the size of the file converted, if any

    def convert(source_bytes):
        data = build(source_bytes)
        built.append(_size(data))
        return data

    tok = load(folder, lk, convert, source=os.path.abspath(source), tokenizer=tokenizer)
    if built:
        _trim_after(built[0])
    return tok


def entries(folder: str) -> list:
    """[(name, path, size, mtime ns)] of the entries, oldest first."""
    out = []
    try:
        with os.scandir(folder) as it:
            for e in it:
                if _ENTRY_NAME.fullmatch(e.name):
                    try:
                        st = e.stat()
                    except OSError:
                        continue
                    out.append((e.name, e.path, st.st_size, st.st_mtime_ns))
    except OSError:
        return []
    out.sort(key=lambda e: e[3])
    return out


def _records(folder: str):
    """(path, record) of each readable record in the folder."""
    try:
        names = [n for n in os.listdir(folder) if _RECORD_NAME.fullmatch(n)]
    except OSError:
        return
    for name in names:
        path = os.path.join(folder, name)
        record = _read_json(path)
        if record and isinstance(record.get("entry"), str):
            yield path, record


def entry_sources(folder: str) -> dict:
    """Entry file name -> the sources whose records name it (for `mtok cache info`)."""
    out = {}
    for _, record in _records(folder):
        out.setdefault(record["entry"], []).append(str(record.get("source", "?")))
    return out


def prune(folder: str, limit: int, keep: str = None) -> list:
    """Removes the oldest entries until they total at most `limit` bytes,
    never the one at path `keep`, and the records that name them; the
    removed entries' file names. Unless it removes one, it only stats the
    entries (every first load calls it)."""
    found = entries(folder)
    total = sum(e[2] for e in found)
    removed = []
    for name, path, size, _ in found:
        if total <= limit:
            break
        if path == keep:
            continue
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        removed.append(name)
    if removed:
        gone = set(removed)
        for path, record in _records(folder):
            if record["entry"] in gone:
                try:
                    os.unlink(path)
                except OSError:
                    pass
    return removed


def clear(folder: str) -> tuple:
    """Removes every entry and source record (and those earlier versions
    kept in subfolders): (files removed, bytes freed). Other files in the
    folder are left alone."""
    count = freed = 0
    for sub in OLD_SUBFOLDERS + ("",):
        d = os.path.join(folder, sub)
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:
            ours = name.endswith((ENTRY_SUFFIX, ".json")) if sub else \
                _ENTRY_NAME.fullmatch(name) or _RECORD_NAME.fullmatch(name)
            if not ours:
                continue
            p = os.path.join(d, name)
            try:
                size = os.path.getsize(p)
                os.unlink(p)
            except OSError:
                continue
            count += 1
            freed += size
        if sub:
            try:  # empty now, unless it holds something else
                os.rmdir(d)
            except OSError:
                pass
    return count, freed
