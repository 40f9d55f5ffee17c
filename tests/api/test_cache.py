"""The on-disk cache of converted tokenizers (mtok.cache): keyed by content,
atomic, never trusted when damaged, and never a reason for other ids."""

import json
import os
import warnings

import pytest

import mtok
from mtok import _native, cache
from small_spec import small_spec

TEXT = "hello world! hello."


def _source(folder, **model):
    spec = small_spec()
    spec.pop("mtok")
    spec["model"].update(model)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "tokenizer.json"
    path.write_text(json.dumps(spec))
    return path


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("MTOK_CACHE_DIR", str(d))
    monkeypatch.setattr(cache, "SETTLE_NS", -10**18)  # trust stat records at once
    monkeypatch.setattr(cache, "RECORD_MIN_BYTES", 0)  # records at the first load (deferral: tested apart)
    cache._warned.clear()
    return d


def _entries(d):
    return sorted(p.name for p in d.glob("*.mtok"))


def test_second_load_maps_the_entry(cache_dir, tmp_path):
    src = _source(tmp_path / "tok")
    first = mtok.Tokenizer.from_file(src)
    assert len(_entries(cache_dir)) == 1
    second = mtok.Tokenizer.from_file(src)
    assert second.encode(TEXT) == first.encode(TEXT) == mtok.Tokenizer.from_file(src, cache=False).encode(TEXT)
    assert len(_entries(cache_dir)) == 1
    assert second.to_bytes() == first.to_bytes()


def test_off_and_parameter(tmp_path, monkeypatch):
    src = _source(tmp_path / "tok")
    monkeypatch.setenv("MTOK_CACHE_DIR", "off")
    assert cache.cache_dir() is None
    mtok.Tokenizer.from_file(src)
    monkeypatch.setenv("MTOK_CACHE_DIR", str(tmp_path / "c"))
    mtok.Tokenizer.from_file(src, cache=False)
    assert not (tmp_path / "c").exists()


def test_default_is_the_user_cache_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("MTOK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == str(tmp_path / "mtok")


@pytest.mark.parametrize("side", ["tokenizer.json", "tokenizer_config.json", "chat_template.jinja",
                                  "special_tokens_map.json"])
def test_a_changed_file_gives_a_new_entry(cache_dir, tmp_path, side):
    src = _source(tmp_path / "tok")
    (src.parent / "tokenizer_config.json").write_text('{"eos_token": "</s>"}')
    before = mtok.Tokenizer.from_file(src)
    path = src.parent / side
    if side == "tokenizer.json":
        _source(src.parent, ignore_merges=False)
    else:
        path.write_text(path.read_text() + " " if path.exists() else '{"x": 1}' if side.endswith("json")
                        else "{{ messages }}")
    after = mtok.Tokenizer.from_file(src)
    assert len(_entries(cache_dir)) == 2
    assert after.to_bytes() == mtok.Tokenizer.from_file(src, cache=False).to_bytes()
    if side == "chat_template.jinja":
        assert after.chat_template == "{{ messages }}" and before.chat_template != after.chat_template


def test_converter_version_is_in_the_key(cache_dir, tmp_path, monkeypatch):
    src = _source(tmp_path / "tok")
    mtok.Tokenizer.from_file(src)
    monkeypatch.setattr(cache, "converter_fingerprint", lambda native_only=False: "another writer")
    mtok.Tokenizer.from_file(src)
    assert len(_entries(cache_dir)) == 2


def test_stale_stat_record_is_rehashed(cache_dir, tmp_path, monkeypatch):
    """A record written within the timestamp granularity of a change is not
    trusted: the content is hashed again."""
    monkeypatch.setattr(cache, "SETTLE_NS", 10**18)
    src = _source(tmp_path / "tok")
    mtok.Tokenizer.from_file(src)
    st = os.stat(src)
    _source(src.parent, ignore_merges=False)
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns))  # same mtime and size; ctime moves
    got = mtok.Tokenizer.from_file(src)
    assert got.to_bytes() == mtok.Tokenizer.from_file(src, cache=False).to_bytes()


def _record_of(cache_dir, src):
    """(record path, record) of the source record naming `src`."""
    return next((p, r) for p in cache_dir.glob("*.source.json")
                if (r := json.loads(p.read_text())).get("source") == str(src))


@pytest.mark.parametrize("damage", ["truncate", "flip", "foreign", "empty", "garbage record", "no record",
                                    "touched"])
def test_damaged_entry_is_rebuilt(cache_dir, tmp_path, damage):
    src = _source(tmp_path / "tok")
    other = _source(tmp_path / "other", ignore_merges=False)
    want = mtok.Tokenizer.from_file(src).encode(TEXT)
    mtok.Tokenizer.from_file(other)
    record_path, record = _record_of(cache_dir, src)
    entry = cache_dir / record["entry"]
    data = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(data[: len(data) // 2])
    elif damage == "flip":
        entry.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    elif damage == "foreign":
        foreign = mtok.Tokenizer.from_file(other, cache=False).to_bytes()
        entry.write_bytes(foreign)
    elif damage == "empty":
        entry.write_bytes(b"")
    elif damage == "garbage record":
        record_path.write_text("{not json")
    elif damage == "no record":
        record_path.unlink()
    else:  # same size, same mtime, other bytes: only the digest in the name sees it
        st = entry.stat()
        entry.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
        os.utime(entry, ns=(st.st_atime_ns, st.st_mtime_ns))
    got = mtok.Tokenizer.from_file(src)
    assert got.encode(TEXT) == want
    assert got.to_bytes() == data
    assert entry.read_bytes() == data  # rebuilt in place, or found intact
    assert _record_of(cache_dir, src)[1]["entry_stat"] == cache._stat(str(entry))


def test_identical_copy_is_used(cache_dir, tmp_path, monkeypatch):
    """An entry whose stat changed but whose bytes are the ones written (a
    copy, a touch) is used, and its record follows."""
    src = _source(tmp_path / "tok")
    mtok.Tokenizer.from_file(src)
    entry = (cache_dir / _entries(cache_dir)[0])
    data = entry.read_bytes()
    entry.unlink()
    entry.write_bytes(data)
    monkeypatch.setattr(cache, "store", lambda *a: pytest.fail("an intact entry was rebuilt"))
    mtok.Tokenizer.from_file(src)
    assert _record_of(cache_dir, src)[1]["entry_stat"] == cache._stat(str(entry))


def test_a_record_makes_the_later_load_hash_nothing(cache_dir, tmp_path, monkeypatch):
    src = _source(tmp_path / "tok")
    mtok.Tokenizer.from_file(src)
    monkeypatch.setattr(cache, "_digest", lambda path, data=None: pytest.fail(f"hashed {path}"))
    monkeypatch.setattr(cache, "lookup", lambda *a: pytest.fail("looked the key up"))
    assert mtok.Tokenizer.from_file(src).encode(TEXT)


def test_a_first_load_writes_the_entry_and_its_record(cache_dir, tmp_path):
    src = _source(tmp_path / "tok")
    mtok.Tokenizer.from_file(src)
    written = sorted(p.relative_to(cache_dir) for p in cache_dir.rglob("*"))
    assert len(written) == 2 and all(len(p.parts) == 1 for p in written)  # flat: no folder made
    assert sorted(p.name.endswith(".source.json") for p in written) == [False, True]
    name = _entries(cache_dir)[0]
    key, digest, suffix = name.split(".")
    assert suffix == "mtok" and digest == _native.digest((cache_dir / name).read_bytes())


def test_a_small_first_load_writes_its_entry_only(cache_dir, tmp_path, monkeypatch, capsys):
    """Below RECORD_MIN_BYTES the first load writes the entry alone; the
    next finds it by its digest and writes the record; the one after hashes
    nothing."""
    monkeypatch.setattr(cache, "RECORD_MIN_BYTES", 2 << 20)
    src = _source(tmp_path / "tok")
    first = mtok.Tokenizer.from_file(src).encode(TEXT)
    assert [p.suffix for p in cache_dir.iterdir()] == [".mtok"]
    from mtok.cli import main

    assert main(["cache", "info"]) == 0
    assert "(source recorded at its next load)" in capsys.readouterr().out
    monkeypatch.setattr(cache, "store", lambda *a: pytest.fail("the entry was rebuilt"))
    assert mtok.Tokenizer.from_file(src).encode(TEXT) == first
    assert _record_of(cache_dir, src)[1]["entry"] == _entries(cache_dir)[0]
    monkeypatch.setattr(cache, "_digest", lambda path, data=None: pytest.fail(f"hashed {path}"))
    monkeypatch.setattr(cache, "lookup", lambda *a: pytest.fail("looked the key up"))
    assert mtok.Tokenizer.from_file(src).encode(TEXT) == first


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_dir_loads_with_one_warning(tmp_path, monkeypatch):
    d = tmp_path / "ro"
    d.mkdir()
    d.chmod(0o500)
    monkeypatch.setenv("MTOK_CACHE_DIR", str(d))
    cache._warned.clear()
    src = _source(tmp_path / "tok")
    with pytest.warns(mtok.CacheWarning) as got:
        a = mtok.Tokenizer.from_file(src)
        b = mtok.Tokenizer.from_file(src)
    assert len(got) == 1 and str(d) in str(got[0].message)
    assert a.encode(TEXT) == b.encode(TEXT)


@pytest.mark.parametrize("error", ["ENOSPC", "EROFS", "ENOENT"])
def test_unwritable_dir_loads_with_one_warning(tmp_path, monkeypatch, error):
    """Full, read-only (also as root) or vanishing folders: the write fails,
    the tokenizer loads from memory, one warning names the folder."""
    import errno

    monkeypatch.setenv("MTOK_CACHE_DIR", str(tmp_path / "c"))
    cache._warned.clear()

    def fail(*args, **kwargs):
        raise OSError(getattr(errno, error), os.strerror(getattr(errno, error)))

    monkeypatch.setattr(cache, "_create_temp", fail)  # cache.py's writes go through it
    src = _source(tmp_path / "tok")
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        a = mtok.Tokenizer.from_file(src)
        b = mtok.Tokenizer.from_file(src)
    assert [w.category for w in got] == [mtok.CacheWarning]
    assert a.encode(TEXT) == b.encode(TEXT) == mtok.Tokenizer.from_file(src, cache=False).encode(TEXT)


def test_a_file_in_place_of_the_dir(tmp_path, monkeypatch):
    blocker = tmp_path / "c"
    blocker.write_text("not a folder")
    monkeypatch.setenv("MTOK_CACHE_DIR", str(blocker))
    cache._warned.clear()
    with pytest.warns(mtok.CacheWarning):
        tok = mtok.Tokenizer.from_file(_source(tmp_path / "tok"))
    assert tok.encode(TEXT)


def test_no_temporary_files_left(cache_dir, tmp_path):
    mtok.Tokenizer.from_file(_source(tmp_path / "tok"))
    left = [p for p in cache_dir.rglob("*") if p.name.startswith(".tmp")]
    assert left == []


def test_concurrent_writers_never_tear(cache_dir, tmp_path):
    import subprocess
    import sys

    src = _source(tmp_path / "tok")
    code = ("import sys, mtok; t = mtok.Tokenizer.from_file(sys.argv[1]); "
            f"assert t.encode({TEXT!r}) == {mtok.Tokenizer.from_file(src, cache=False).encode(TEXT)!r}")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    procs = [subprocess.Popen([sys.executable, "-c", code, str(src)], env=env) for _ in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0] * 4
    assert len(_entries(cache_dir)) == 1
    assert mtok.Tokenizer.from_file(src).encode(TEXT)


def test_bounded(cache_dir, tmp_path, monkeypatch):
    a = mtok.Tokenizer.from_file(_source(tmp_path / "a"))
    size = len(a.to_bytes())
    monkeypatch.setenv("MTOK_CACHE_MAX_MB", str(size * 1.5 / 1e6))
    mtok.Tokenizer.from_file(_source(tmp_path / "b", ignore_merges=False))
    assert len(_entries(cache_dir)) == 1  # the older one made room
    # and its record went with it: records are bounded as entries are
    records = [json.loads(p.read_text()) for p in cache_dir.glob("*.source.json")]
    assert [r["entry"] for r in records] == _entries(cache_dir)


def test_prune_under_the_limit_reads_no_records(cache_dir, tmp_path, monkeypatch):
    mtok.Tokenizer.from_file(_source(tmp_path / "a"))
    mtok.Tokenizer.from_file(_source(tmp_path / "b", ignore_merges=False))
    monkeypatch.setattr(cache, "_read_json", lambda path: pytest.fail("records read under the limit"))
    assert cache.prune(str(cache_dir), 1 << 40) == []
    assert len(_entries(cache_dir)) == 2


def test_encodings_use_the_cache(cache_dir):
    from mtok.encodings import _load  # get_encoding memoizes the object per process

    first = _load("r50k_base")
    assert len(_entries(cache_dir)) == 1
    again = _load("r50k_base")
    assert again.encode("hello", add_special_tokens=False) == first.encode("hello", add_special_tokens=False) \
        == [31373]  # tiktoken r50k_base


def test_cli_info_and_clear(cache_dir, tmp_path, capsys):
    from mtok.cli import main

    src = _source(tmp_path / "tok")
    mtok.Tokenizer.from_file(src)
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert str(cache_dir) in out and "entries: 1" in out and str(src) in out, out
    assert main(["cache", "clear"]) == 0
    assert "removed" in capsys.readouterr().out
    assert _entries(cache_dir) == []
    mtok.Tokenizer.from_file(src)
    assert main(["cache", "clear", "--max-mb", "0"]) == 0
    assert _entries(cache_dir) == []


def test_clear_removes_only_the_cache_files(cache_dir, tmp_path):
    """The folder is flat and may be one the user shares: clear removes the
    entries and records (and the subfolders of the earlier layout), nothing
    else."""
    src = _source(tmp_path / "tok")
    mtok.Tokenizer.from_file(src)
    (cache_dir / "notes.json").write_text("{}")
    (cache_dir / "mine.txt").write_text("keep")
    (cache_dir / "tokenizer.mtok").write_bytes(b"the user's own export")
    assert cache.prune(str(cache_dir), 0) != [] and (cache_dir / "tokenizer.mtok").exists()
    mtok.Tokenizer.from_file(src)
    for sub, name in (("entries", "0123456789abcdef.0123456789abcdef.mtok"), ("sources", "0123.json")):
        (cache_dir / sub).mkdir()
        (cache_dir / sub / name).write_bytes(b"old layout")
    count, _ = cache.clear(str(cache_dir))
    assert count == 4
    assert sorted(p.name for p in cache_dir.iterdir()) == ["mine.txt", "notes.json", "tokenizer.mtok"]
    assert mtok.Tokenizer.from_file(src).encode(TEXT) == mtok.Tokenizer.from_file(src, cache=False).encode(TEXT)


def test_temporary_names_are_unique_and_private(tmp_path):
    made = [cache._create_temp(str(tmp_path)) for _ in range(50)]
    for fd, _ in made:
        os.close(fd)
    paths = [p for _, p in made]
    assert len(set(paths)) == 50
    assert all(os.path.dirname(p) == str(tmp_path) and os.path.basename(p).startswith(".tmp-") for p in paths)
    assert all(os.stat(p).st_mode & 0o777 == 0o600 for p in paths)


def test_files_are_keyed_by_their_whole_content(cache_dir, tmp_path):
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(range(256)) * (9 << 12))  # past one read block
    small = tmp_path / "small.bin"
    small.write_bytes(b"abc")
    assert cache._digest(str(big)) == "h64:" + _native.digest(big.read_bytes())
    assert cache._digest(str(small)) == "h64:" + _native.digest(b"abc")
    before = cache.source_key(str(cache_dir), str(big), {})
    data = bytearray(big.read_bytes())
    data[len(data) // 2] ^= 1  # same size, one bit changed
    big.write_bytes(bytes(data))
    os.utime(big, ns=(0, 0))  # and a stat record that no longer matches
    assert cache.source_key(str(cache_dir), str(big), {}) != before


@pytest.mark.parametrize("size", [0, 1, 3, (64 << 10) - 1, 64 << 10, (64 << 10) + 1, 3 * (64 << 10) + 7])
def test_digest_of_a_file_is_the_digest_of_its_bytes(tmp_path, size):
    data = (bytes(range(251)) * (size // 251 + 1))[:size]
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    got = _native.digest_file(str(path))
    assert got == _native.digest(data)
    assert len(got) == 16 and int(got, 16) >= 0


def test_digests_differ_on_any_change_of_the_bytes():
    base = bytes(300_000)
    seen = {_native.digest(base), _native.digest(base[:-1]), _native.digest(base + b"\0")}
    for at in (0, 1, 64 << 10, len(base) - 1):
        changed = bytearray(base)
        changed[at] = 1
        seen.add(_native.digest(bytes(changed)))
    assert len(seen) == 7


def test_digest_of_an_unreadable_file_names_it(tmp_path):
    missing = tmp_path / "missing.bin"
    with pytest.raises(FileNotFoundError, match="missing.bin"):
        _native.digest_file(str(missing))
    with pytest.raises(IsADirectoryError, match=str(tmp_path)):
        _native.digest_file(str(tmp_path))


def test_files_fingerprint_follows_the_code_files(tmp_path):
    code = tmp_path / "pkg"
    (code / "sub" / "__pycache__").mkdir(parents=True)
    (code / "a.py").write_text("a = 1\n")
    (code / "sub" / "b.py").write_text("b = 1\n")
    (code / "notes.txt").write_text("not code")
    single = tmp_path / "one.so"
    single.write_bytes(b"\0" * 10)

    def fp():
        return _native.files_fingerprint("v1", [str(single), str(tmp_path / "absent.so")], [str(code)], ".py")

    (code / "sub" / "loop").symlink_to(code, target_is_directory=True)  # not followed
    first = fp()
    assert fp() == first and len(first) == 16
    assert _native.files_fingerprint("v2", [str(single)], [str(code)], ".py") != \
        _native.files_fingerprint("v1", [str(single)], [str(code)], ".py")
    (code / "notes.txt").write_text("still not code")
    (code / "sub" / "__pycache__" / "c.py").write_text("compiled elsewhere")
    assert fp() == first  # other suffixes and __pycache__ do not count
    changes = [
        lambda: (code / "sub" / "b.py").write_text("b = 22\n"),  # size
        lambda: os.utime(code / "a.py", ns=(0, 123)),  # mtime
        lambda: (code / "sub" / "new.py").write_text(""),  # a new file in a subfolder
        lambda: single.unlink(),  # a file gone
    ]
    seen = {first}
    for change in changes:
        change()
        seen.add(fp())
    assert len(seen) == len(changes) + 1


def test_a_source_read_whole_gives_the_same_key_and_its_bytes(cache_dir, tmp_path, monkeypatch):
    """read_source: the source is read once, hashed from memory and handed to
    the converter; the key is the one a load that streams it computes."""
    src = _source(tmp_path / "tok")
    streamed = cache.source_lookup(str(cache_dir), str(src), {})
    hashed = []  # the files read from disk to hash them
    real = cache._digest
    monkeypatch.setattr(cache, "_digest", lambda path, data=None: (data is None and hashed.append(path))
                        or real(path, data))
    whole = cache.source_lookup(str(cache_dir), str(src), {}, read_source=True)
    assert whole.key == streamed.key and streamed.source_bytes is None
    assert whole.source_bytes == src.read_bytes()
    assert str(src) not in hashed  # only the files beside it were streamed


def test_a_model_is_read_once_at_a_first_load(cache_dir, monkeypatch):
    from corpus import require
    from mtok import convert

    source = require("tokenizers", "sentencepiece-test", "test_model.model")
    given = []
    real = convert._sp_model_file
    monkeypatch.setattr(convert, "_sp_model_file", lambda path, data=None: given.append(data) or real(path, data))
    first = mtok.Tokenizer.from_file(source)
    assert given == [source.read_bytes()]
    assert first.to_bytes() == mtok.Tokenizer.from_file(source, cache=False).to_bytes()


def _sp_test_model():
    from corpus import require

    return require("tokenizers", "sentencepiece-test", "test_model.model")


def test_a_model_written_natively_is_keyed_by_the_native_code(cache_dir, monkeypatch):
    """The native core writes a .model's file whole, so its key names the
    native module alone: a change to the Python converter keeps the entry."""
    source = _sp_test_model()
    first = mtok.Tokenizer.from_file(source).to_bytes()
    real = cache.converter_fingerprint
    monkeypatch.setattr(cache, "converter_fingerprint",
                        lambda native_only=False: real(True) if native_only else "another python converter")
    monkeypatch.setattr(cache, "store", lambda *a: pytest.fail("the entry was rebuilt"))
    assert mtok.Tokenizer.from_file(source).to_bytes() == first


def test_a_model_the_native_core_declines_is_keyed_as_python_code(cache_dir, monkeypatch):
    """A .model the native writer declines is converted by the Python
    importer and cached under the key that names the Python converter."""
    from mtok import convert

    source = _sp_test_model()
    native = mtok.Tokenizer.from_file(source, cache=False)
    asked = []
    monkeypatch.setattr(convert, "_sp_model_file", lambda path, data=None: asked.append(path) and None)
    declined = mtok.Tokenizer.from_file(source)
    assert len(asked) == 1  # the Python route does not offer it to the native writer again
    options = {"pattern": None, "add_bos": False, "add_eos": False}
    key = cache.source_key(str(cache_dir), str(source), options)
    assert key != cache.source_key(str(cache_dir), str(source), options, native_only=True)
    assert [n.split(".")[0] for n in _entries(cache_dir)] == [key]
    text = "Hello world, ▁ and 日本語 text."
    assert declined.encode(text) == native.encode(text)
    monkeypatch.setattr(cache, "store", lambda *a: pytest.fail("the entry was rebuilt"))
    assert mtok.Tokenizer.from_file(source).encode(text) == native.encode(text)
