"""Shard planning: deterministic boundaries by records or bytes, records
that span blocks and files, and the size parser."""

import pytest

from mtok.corpus import CorpusError, JobOptions, ShardSize, parse_shard_size
from mtok.corpus.inputs import expand_inputs
from mtok.corpus import plan as plan_mod
from mtok.corpus.plan import plan_shards


def _plan(paths, **kw):
    options = JobOptions(**kw)
    return plan_shards(expand_inputs([str(p) for p in paths], options.input_format), options)


def _ranges(shards):
    return [[(p.source, p.start, p.end, p.first_line) for p in s.pieces] for s in shards]


def test_parse_shard_size():
    assert parse_shard_size("10000") == ShardSize(10000, "records")
    assert parse_shard_size("64MB") == ShardSize(64 * 10**6, "bytes")
    assert parse_shard_size("1.5GiB") == ShardSize(int(1.5 * 2**30), "bytes")
    assert parse_shard_size("4096B") == ShardSize(4096, "bytes")
    assert parse_shard_size("2k") == ShardSize(2000, "bytes")
    for bad in ("", "0", "-5", "1.5", "ten", "5 parsecs"):
        with pytest.raises(CorpusError):
            parse_shard_size(bad)


def test_records_span_files(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(b"1\n2\n3\n")
    b.write_bytes(b"4\n5")  # no final newline: "5" is still a record
    sources, shards = _plan([a, b], shard_size=ShardSize(2, "records"))
    assert _ranges(shards) == [[(0, 0, 4, 1)], [(0, 4, 6, 3), (1, 0, 2, 1)], [(1, 2, 3, 2)]]
    assert [s.records for s in shards] == [2, 2, 1]
    assert [s.size for s in sources] == [6, 3]


def test_bytes_close_at_the_next_line_end(tmp_path):
    a = tmp_path / "a.txt"
    a.write_bytes(b"aaaa\nbb\ncccccc\nd\n")
    _, shards = _plan([a], shard_size=ShardSize(6, "bytes"))
    # 6 bytes reach into "bb\n", so the first shard ends after it.
    assert _ranges(shards) == [[(0, 0, 8, 1)], [(0, 8, 15, 3)], [(0, 15, 17, 4)]]
    assert sum(s.nbytes for s in shards) == 17


@pytest.mark.parametrize("unit", ["records", "bytes"])
def test_block_boundaries_do_not_change_the_plan(tmp_path, monkeypatch, unit):
    lines = [("x" * (i % 17)) + "\n" for i in range(500)]
    a = tmp_path / "a.txt"
    a.write_text("".join(lines))
    size = ShardSize(37 if unit == "records" else 300, unit)
    _, reference = _plan([a], shard_size=size)
    for block in (1, 7, 64, 1000):
        monkeypatch.setattr(plan_mod, "_BLOCK", block)
        _, shards = _plan([a], shard_size=size)
        assert _ranges(shards) == _ranges(reference), block
    # Pieces tile the file and start on line starts with the right numbers.
    data = a.read_bytes()
    for shard in reference:
        for p in shard.pieces:
            assert p.start == 0 or data[p.start - 1:p.start] == b"\n"
            assert data.count(b"\n", 0, p.start) + 1 == p.first_line


def test_doc_per_file_and_folders(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("b.txt", "a.txt", ".hidden", "c.txt"):
        (folder / name).write_text(name * 10)
    sources, shards = _plan([folder], doc_per="file", shard_size=ShardSize(2, "records"))
    assert [s.path.split("/")[-1] for s in sources] == ["a.txt", "b.txt", "c.txt"]
    assert [len(s.pieces) for s in shards] == [2, 1]


def test_formats_by_extension(tmp_path):
    for name in ("a.jsonl", "b.ndjson", "c.txt", "d.md"):
        (tmp_path / name).write_text("")
    got = {s.path.split("/")[-1]: s.format for s in expand_inputs([str(tmp_path)])}
    assert got == {"a.jsonl": "jsonl", "b.ndjson": "jsonl", "c.txt": "text", "d.md": "text"}
    assert {s.format for s in expand_inputs([str(tmp_path)], "jsonl")} == {"jsonl"}


def test_empty_inputs_give_an_empty_dataset(tmp_path):
    import mtok.corpus
    from corpus_helpers import o200k

    a = tmp_path / "a.txt"
    a.write_bytes(b"")
    summary = mtok.corpus.tokenize_corpus([a], o200k(), tmp_path / "out", show_progress=False)
    ds = mtok.corpus.open(tmp_path / "out")
    assert summary["shards"] == 0 and len(ds) == 0 and ds.num_tokens == 0 and list(ds) == []
