"""Batch scaling: mtok's encode_batch on 1 and 2 native threads over the
same documents; throughput ratio, and the ids must not depend on threads."""

import gc
import time


def run(spec, docs, *, rounds: int = 5, threads=(1, 2), log=print) -> list:
    from .peers import ids_digest, load_mtok

    tok = load_mtok(spec.mtok)
    nbytes = sum(len(d.encode("utf-8")) for d in docs)
    log(f"  {spec.name} batch: {len(docs)} documents, {nbytes / 1e6:.2f} MB, threads {threads}")
    sequential = ids_digest([i for d in docs for i in tok.encode(d, add_special_tokens=False)])
    best = {n: float("inf") for n in threads}
    digests = {}
    gc.disable()
    try:
        for r in range(rounds):  # interleaved: noise hits every thread count alike
            for n in threads:
                t = time.perf_counter()
                out = tok.encode_batch(docs, add_special_tokens=False, num_threads=n)
                best[n] = min(best[n], time.perf_counter() - t)
                digests[n] = ids_digest([i for ids in out for i in ids])
    finally:
        gc.enable()
    base = best[threads[0]]
    return [{"tokenizer": spec.name, "threads": n, "docs": len(docs), "mb_s": nbytes / best[n] / 1e6,
             "speedup": base / best[n], "match": digests[n] == sequential} for n in threads]
