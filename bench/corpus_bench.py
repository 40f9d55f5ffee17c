#!/usr/bin/env python3
"""Corpus tokenization throughput: `mtok tokenize-corpus` engines against HF
`datasets`-style batch tokenization.

The input is the corpus texts (../shared/corpus/text), one document per
non-empty line, repeated to --size-mb. Each mtok run is a full job (plan,
read, tokenize, write shards, manifest) into a fresh folder; the HF row is
`tokenizers.Tokenizer.encode_batch` over batches of 1000 documents (what
`datasets.map(batched=True)` calls), ids kept in memory and nothing written,
in a subprocess per thread count (rayon's pool size is fixed at start).
Every mtok output must be byte-identical, and its documents must equal
HF's ids on a sample. Results are printed, not saved.

    PYTHONPATH=src:tests python bench/corpus_bench.py --size-mb 200
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("MTOK_CORPUS", REPO.parent / "shared" / "corpus"))
HF_BATCH = 1000


def build_input(path: Path, size_mb: float) -> int:
    """Writes the corpus lines, repeated, to `path`; returns its size."""
    lines = []
    for p in sorted((CORPUS / "text").rglob("*")):
        if p.is_file():
            text = p.read_bytes().decode("utf-8", errors="replace")
            # No \r: the job would strip it and HF would not.
            lines += [l.rstrip("\r") for l in text.split("\n") if l.strip()]
    block = ("\n".join(lines) + "\n").encode()
    target = int(size_mb * 1e6)
    with open(path, "wb") as f:
        written = 0
        while written + len(block) <= target:
            f.write(block)
            written += len(block)
        rest = block[:target - written]
        f.write(rest[:rest.rfind(b"\n") + 1])
    return path.stat().st_size


def read_docs(path: Path) -> list:
    """The documents of the input file, as the job reads them."""
    return [l for l in path.read_text(encoding="utf-8").split("\n") if l]


def folder_digest(folder: Path) -> str:
    """One hash over every output file's name and bytes."""
    h = hashlib.sha256()
    for p in sorted(folder.iterdir()):
        if p.name != ".lock":
            h.update(p.name.encode() + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def run_mtok(tok, src: Path, out: Path, engine: str, workers: int, shard_size: str) -> float:
    """Seconds of one full job. A Dask cluster is started outside the
    timing, as a user with a cluster would not pay for its start-up."""
    from mtok.corpus import JobOptions, parse_shard_size, tokenize_corpus

    cluster = None
    if engine == "dask":
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None, silence_logs=50)
    try:
        t = time.perf_counter()
        tokenize_corpus([src], tok, out, JobOptions(shard_size=parse_shard_size(shard_size)),
                        engine=engine, workers=workers, show_progress=False,
                        scheduler=cluster.scheduler_address if cluster else None)
        return time.perf_counter() - t
    finally:
        if cluster is not None:
            cluster.close()


def run_mtok_memory(tok, docs: list, threads: int) -> float:
    """Seconds to encode every document with encode_batch, nothing written."""
    t = time.perf_counter()
    for i in range(0, len(docs), HF_BATCH * 16):
        tok.encode_batch(docs[i:i + HF_BATCH * 16], add_special_tokens=False, num_threads=threads)
    return time.perf_counter() - t


def hf_child(tokenizer_path: str, src: str, sample_out: str) -> None:
    """In a subprocess with RAYON_NUM_THREADS set: time HF batches and dump
    a sample of ids for the correctness check."""
    import tokenizers

    ref = tokenizers.Tokenizer.from_file(tokenizer_path)
    ref.no_truncation()
    ref.no_padding()
    docs = read_docs(Path(src))
    t = time.perf_counter()
    sample = {}
    for i in range(0, len(docs), HF_BATCH):
        encs = ref.encode_batch(docs[i:i + HF_BATCH], add_special_tokens=False)
        k = (i // HF_BATCH * 7919) % len(encs)  # one document per batch, spread over positions
        sample[i + k] = encs[k].ids
    secs = time.perf_counter() - t
    with open(sample_out, "w") as f:
        json.dump({"seconds": secs, "version": tokenizers.__version__, "sample": sample}, f)


def run_hf(tokenizer_path: Path, src: Path, threads: int, tmp: Path) -> dict:
    """Runs :func:`hf_child` with `threads` rayon threads; returns its report."""
    out = tmp / f"hf{threads}.json"
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads), TOKENIZERS_PARALLELISM="true")
    subprocess.run([sys.executable, __file__, "--hf-child", str(tokenizer_path), str(src), str(out)],
                   env=env, check=True)
    return json.loads(out.read_text())


def main() -> int:
    """Builds the input, runs every configuration, prints the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=20, help="input size in MB (the issue's figure: 200)")
    ap.add_argument("--tokenizer", default=str(CORPUS / "tokenizers" / "llama3" / "tokenizer.json"),
                    help="a tokenizer.json that both mtok and HF tokenizers load")
    ap.add_argument("--workers", default="1,2", help="worker counts to run")
    ap.add_argument("--engines", default="local,dask,threads", help="mtok engines to run")
    ap.add_argument("--shard-size", default="2MB", help="mtok --shard-size (default 2MB)")
    ap.add_argument("--hf-child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.hf_child:
        hf_child(*args.hf_child)
        return 0

    import mtok
    import mtok.corpus

    if not (CORPUS / "text").is_dir() or not Path(args.tokenizer).exists():
        print(f"the benchmark needs the corpus at {CORPUS} (set MTOK_CORPUS)", file=sys.stderr)
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="mtok-corpus-bench-"))
    try:
        src = tmp / "input.txt"
        nbytes = build_input(src, args.size_mb)
        docs = read_docs(src)
        tok = mtok.Tokenizer.from_file(args.tokenizer)
        workers = [int(w) for w in args.workers.split(",")]
        print(f"input: {nbytes / 1e6:.1f} MB, {len(docs):,} documents (corpus texts repeated), "
              f"tokenizer {Path(args.tokenizer).parent.name}, shard size {args.shard_size}, "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
        rows, digests, ref_dir = [], {}, None
        for engine in args.engines.split(","):
            for w in workers:
                if engine == "threads" and w == 1:
                    continue  # the same work as local with one worker
                out = tmp / f"{engine}{w}"
                secs = run_mtok(tok, src, out, engine, w, args.shard_size)
                digests[(engine, w)] = folder_digest(out)
                ref_dir = ref_dir or out
                rows.append((f"mtok tokenize-corpus --engine {engine}", w, secs, "shards on disk"))
                if out != ref_dir:
                    shutil.rmtree(out)
        for w in workers:
            rows.append(("mtok encode_batch (no I/O)", w, run_mtok_memory(tok, docs, w), "ids in memory"))
        hf_version, hf_sample = None, {}
        for w in workers:
            res = run_hf(Path(args.tokenizer), src, w, tmp)
            hf_version, hf_sample = res["version"], res["sample"]
            rows.append((f"HF tokenizers {hf_version} encode_batch", w, res["seconds"], "ids in memory"))

        same = len(set(digests.values())) == 1
        ds = mtok.corpus.open(ref_dir, verify=True)
        # Document i of the dataset is docs[i] (no empty lines in the input).
        mismatches = sum(ds[int(i)].tolist() != ids for i, ids in hf_sample.items())
        base = {w: secs for name, w, secs, _ in rows if name.startswith("HF")}

        print(f"\n{'run':<44} {'workers':>7} {'seconds':>8} {'MB/s':>8} {'vs HF':>6}  output")
        for name, w, secs, what in rows:
            ratio = base.get(w, secs) / secs
            print(f"{name:<44} {w:>7} {secs:8.2f} {nbytes / 1e6 / secs:8.2f} {ratio:5.2f}x  {what}")
        print(f"\nmtok outputs byte-identical across engines and worker counts: {same}")
        print(f"dataset: {len(ds):,} documents, {ds.num_tokens:,} tokens; ids equal HF's on "
              f"{len(hf_sample) - mismatches}/{len(hf_sample)} sampled documents")
        return 0 if same and not mismatches else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
