"""Batch scaling: mtok's encode_batch on 1 and 2 native threads over the
same documents; throughput ratio, and the ids must not depend on threads.
Runs in a fresh worker process: thread pools other libraries left behind
in the host (spinning, or holding a core) would be measured too.

Next to it, the scaling of a job with nothing shared (SHA-256 of a buffer
per thread, which releases the GIL), timed in the same rounds: what the
machine's cores give at that moment. On a shared virtual machine it moves
between about 1.3 and 1.9 from minute to minute."""

import hashlib
import threading
import time

from .timing import gc_paused

WARM_CALLS = 8  # untimed calls with the most threads, after one per thread count
PROBE_BYTES = 8 << 20  # hashed by each thread of the machine probe


def _probe_seconds(n: int, buf: bytes) -> float:
    """Seconds per buffer when n threads hash `buf` once each (n = 1: on
    this thread)."""
    work = lambda: hashlib.sha256(buf).digest()
    pool = [threading.Thread(target=work) for _ in range(n - 1)]
    t = time.perf_counter()
    for th in pool:
        th.start()
    work()
    for th in pool:
        th.join()
    return (time.perf_counter() - t) / n


def measure(spec, docs, rounds, threads) -> list:
    """The rows, measured in this process (called by worker.py)."""
    from .peers import ids_digest, load_mtok

    tok = load_mtok(spec.mtok)
    nbytes = sum(len(d.encode("utf-8")) for d in docs)
    sequential = ids_digest([i for d in docs for i in tok.encode(d, add_special_tokens=False)])
    warm = {n: tok.encode_batch(docs, add_special_tokens=False, num_threads=n) for n in threads}
    # Untimed: each thread has its own pre-token cache, and the threads
    # share the documents differently at every call, so a thread meets
    # documents it has not seen for several calls (timed, the first rounds
    # of two threads were 1.5x the later ones). The calling thread's cache
    # has seen them all: the one-thread rounds start warm.
    for _ in range(WARM_CALLS):
        tok.encode_batch(docs, add_special_tokens=False, num_threads=max(threads))
    match = {n: ids_digest([i for ids in out for i in ids]) == sequential for n, out in warm.items()}
    reference = warm[threads[0]]
    del warm
    best = {n: float("inf") for n in threads}
    probe = {n: float("inf") for n in threads}
    buf = bytes(PROBE_BYTES)
    with gc_paused():
        for r in range(rounds):  # interleaved: noise hits every thread count alike
            for n in threads:
                out = None  # freed before the timer: only the call is timed
                t = time.perf_counter()
                out = tok.encode_batch(docs, add_special_tokens=False, num_threads=n)
                best[n] = min(best[n], time.perf_counter() - t)
                # A list compare, not a digest: a long pause between rounds
                # lets the idle core's caches go cold.
                match[n] = match[n] and out == reference
                probe[n] = min(probe[n], _probe_seconds(n, buf))
    base = best[threads[0]]
    return [{"tokenizer": spec.name, "threads": n, "docs": len(docs), "mb_s": nbytes / best[n] / 1e6,
             "speedup": base / best[n], "machine": probe[threads[0]] / probe[n], "match": match[n]}
            for n in threads]


def run(spec, docs, *, rounds: int = 5, threads=(1, 2), log=print) -> list:
    from .subproc import run_job

    nbytes = sum(len(d.encode("utf-8")) for d in docs)
    log(f"  {spec.name} batch: {len(docs)} documents, {nbytes / 1e6:.2f} MB, threads {threads}, fresh process")
    res = run_job({"job": "batch", "spec": spec.to_dict(), "docs": docs, "rounds": rounds,
                   "threads": list(threads)})
    if not res.get("ok"):
        return [{"tokenizer": spec.name, "threads": threads[0], "error": res["error"]}]
    return res["rows"]
