"""The dataset reader: indexing, slicing, iteration, lengths, Parquet."""

import numpy as np
import pytest

import mtok.corpus
from mtok.corpus import JobOptions, ShardSize, tokenize_corpus

from corpus_helpers import o200k

TEXTS = ["Hello world", "Grüße aus Köln", "日本語のテキスト", "🙂 emoji", "x", "last document"]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("reader")
    src = root / "in.txt"
    src.write_text("\n".join(TEXTS) + "\n", encoding="utf-8")
    tokenize_corpus([src], o200k(), root / "out", JobOptions(shard_size=ShardSize(4, "records")),
                    show_progress=False)
    return mtok.corpus.open(root / "out")


def test_index_slice_iterate(dataset):
    tok = o200k()
    want = [tok.encode(t, add_special_tokens=False) for t in TEXTS]
    assert len(dataset) == len(TEXTS) and len(dataset.manifest["shards"]) == 2
    assert [dataset[i].tolist() for i in range(len(TEXTS))] == want
    assert dataset[-1].tolist() == want[-1]
    assert dataset[np.int64(2)].tolist() == want[2]
    assert [d.tolist() for d in dataset[3:5]] == want[3:5]
    assert [d.tolist() for d in dataset] == want
    assert dataset.num_tokens == sum(map(len, want))
    assert dataset.document_lengths().tolist() == [len(w) for w in want]
    doc = dataset[0]
    assert type(doc) is np.ndarray and doc.dtype == np.uint32 and not doc.flags.writeable
    with pytest.raises(IndexError):
        dataset[len(TEXTS)]
    with pytest.raises(TypeError):
        dataset["0"]


def test_parquet_input(tmp_path):
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    import pyarrow.parquet as pq

    texts = [f"row {i}: " + TEXTS[i % len(TEXTS)] for i in range(25)]
    table = pa.table({"id": list(range(25)), "content": texts})
    path = tmp_path / "in.parquet"
    pq.write_table(table, path, row_group_size=10)
    tokenize_corpus([path], o200k(), tmp_path / "out",
                    JobOptions(field="content", shard_size=ShardSize(7, "records")), show_progress=False)
    ds = mtok.corpus.open(tmp_path / "out", verify=True)
    tok = o200k()
    assert [d.tolist() for d in ds] == [tok.encode(t, add_special_tokens=False) for t in texts]
    assert len(ds.manifest["shards"]) == 4
    with pytest.raises(mtok.corpus.CorpusError, match="no column 'text'"):
        tokenize_corpus([path], o200k(), tmp_path / "bad", show_progress=False)
