"""The engines give byte-identical output, and the reader returns exactly
`tok.encode(doc, add_special_tokens=False)` for every document."""

import os

import numpy as np
import pytest

import mtok
import mtok.corpus
from mtok.corpus import JobOptions, parse_shard_size, tokenize_corpus

from corpus_helpers import cli_env, folder_digest, line_documents, o200k, run_cli, subset_files

OPTIONS = JobOptions(shard_size=parse_shard_size("128KB"))


@pytest.fixture(scope="module")
def files():
    return subset_files()


@pytest.fixture(scope="module")
def local_out(files, tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "out"
    tokenize_corpus(files, o200k(), out, OPTIONS, engine="local", workers=2, show_progress=False)
    return out


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed")
    # Workers are new processes: they must import mtok the way this one does.
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = cli_env()["PYTHONPATH"]
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    try:
        yield cluster
    finally:
        cluster.close()
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def test_reader_matches_encode(files, local_out):
    tok = o200k()
    docs = line_documents(files)
    ds = mtok.corpus.open(local_out, verify=True)
    assert len(ds) == len(docs)
    assert len(ds.manifest["shards"]) > 4, "the subset should span several shards"
    total = 0
    for i, (doc, ids) in enumerate(zip(docs, ds)):
        want = tok.encode(doc, add_special_tokens=False)
        assert ids.tolist() == want, f"document {i}: {doc[:60]!r}"
        total += len(want)
    assert ds.num_tokens == total
    assert ds.manifest["dtype"] == "uint32"


def test_dask_matches_local(files, local_out, dask_cluster, tmp_path):
    out = tmp_path / "dask"
    tokenize_corpus(files, o200k(), out, OPTIONS, engine="dask",
                    scheduler=dask_cluster.scheduler_address, show_progress=False)
    assert folder_digest(out) == folder_digest(local_out)


def test_threads_and_one_worker_match_local(files, local_out, tmp_path):
    for engine, workers in (("threads", 2), ("local", 1)):
        out = tmp_path / f"{engine}{workers}"
        tokenize_corpus(files, o200k(), out, OPTIONS, engine=engine, workers=workers, show_progress=False)
        assert folder_digest(out) == folder_digest(local_out), engine


def test_cli_dask_scheduler_matches_local(files, local_out, dask_cluster, tmp_path):
    out = tmp_path / "cli"
    proc = run_cli("tokenize-corpus", *files, "-t", "o200k_base", "-o", out, "--shard-size", "128KB",
                   "--engine", "dask", "--scheduler", dask_cluster.scheduler_address)
    assert "documents" in proc.stderr and "tokens" in proc.stderr  # the summary line
    assert folder_digest(out) == folder_digest(local_out)


def test_manifest_describes_job(files, local_out):
    ds = mtok.corpus.open(local_out)
    m = ds.manifest
    import hashlib

    assert m["tokenizer"]["sha256"] == hashlib.sha256(o200k().to_bytes()).hexdigest()
    assert [s["path"] for s in m["sources"]] == [os.path.normpath(f) for f in files]
    for src in m["sources"]:
        assert src["size"] == os.path.getsize(src["path"])
        with open(src["path"], "rb") as f:
            assert src["sha256"] == hashlib.sha256(f.read()).hexdigest()
    assert m["num_documents"] == len(ds) == sum(s["documents"] for s in m["shards"])
    assert m["input_bytes"] == sum(os.path.getsize(f) for f in files)
    assert m["malformed_records"]["count"] == 0


def test_uint16_and_options(tmp_path):
    """A vocabulary under 65536 gives uint16; --append-eos and
    --add-special-tokens change the ids exactly as documented."""
    import corpus

    gpt2 = mtok.Tokenizer.from_file(corpus.file_path("tokenizers", "gpt2", "tokenizer.json"))
    src = tmp_path / "in.txt"
    src.write_text("Hello world\n\nこんにちは世界\nlast line without newline", encoding="utf-8")
    docs = line_documents([src])

    tokenize_corpus([src], gpt2, tmp_path / "eos", JobOptions(append_eos=True), show_progress=False)
    ds = mtok.corpus.open(tmp_path / "eos")
    assert ds.manifest["dtype"] == "uint16" and ds[0].dtype == np.uint16
    assert [d.tolist() for d in ds] == [gpt2.encode(d, add_special_tokens=False) + [gpt2.stop_ids[0]]
                                        for d in docs]

    tokenize_corpus([src], gpt2, tmp_path / "special", JobOptions(add_special_tokens=True), show_progress=False)
    ds = mtok.corpus.open(tmp_path / "special")
    assert [d.tolist() for d in ds] == [gpt2.encode(d, add_special_tokens=True) for d in docs]

    # o200k lists no stop ids; its eos_token names the id to append.
    tokenize_corpus([src], o200k(), tmp_path / "o200k", JobOptions(append_eos=True), show_progress=False)
    assert mtok.corpus.open(tmp_path / "o200k")[0].tolist()[-1] == o200k().token_to_id("<|endoftext|>")
