"""Subprocess worker: ``python -m bench.worker JOB.json OUT.json``.

Runs one job in a process of its own: a fresh process for load times and
the cold pass, and the tokenizers-1.0 venv for that library (which cannot
share an environment with tokenizers 0.23). The host writes the strings to
JOB.json, so the worker encodes exactly what the host does.
Standard library only at import time.
"""

import json
import sys
import time

from . import batch, cold, first_seen, long_input, memory, peers, timing, traffic, worstcase
from .specs import TokSpec


def _peer(name):
    # In the venv, "tokenizers-rc3" is just the tokenizers adapter.
    return peers.Tokenizers() if name == "tokenizers-rc3" else peers.BY_NAME[name]


def _encoders(names, spec):
    """name -> encode(text) for each library that loads; errors by name."""
    encoders, errors = {}, {}
    for name in names:
        try:
            encoders[name] = _peer(name).load(spec)
        except Exception as e:
            errors[name] = f"{type(e).__name__}: {e}"[:200]
    return encoders, errors


def job_sized(job, spec):
    encoders, errors = _encoders(job["libs"], spec)
    cells = {}
    for size, strings in job["cells"].items():
        cells[size] = timing.measure(encoders, strings, budget_s=job["budget_s"],
                                     min_rounds=job["min_rounds"], max_rounds=job["max_rounds"])
    return {"cells": cells, "errors": errors}


def job_cold(job, spec):
    return cold.one_pass(_peer(job["lib"]), spec, job["chunks"])


def job_worst(job, spec):
    fn = _peer(job["lib"]).load(spec)
    sizes = tuple(job["sizes"])
    out = {}
    for case in job["cases"]:
        # The last stderr line names the size being encoded if the library aborts.
        progress = lambda n, case=case: print(f"while encoding {case} of {n} chars", file=sys.stderr, flush=True)  # noqa: E731
        out[case] = worstcase.growth(fn, worstcase.CASES[case], sizes, job["limit_s"], progress)
    return out


def job_load(job, spec):
    """Import (untimed, unless importing is the load), then load + first encode."""
    peer = _peer(job["lib"])
    import_ms = None
    if peer.pre_import:
        t = time.perf_counter()
        __import__(peer.pre_import)
        import_ms = (time.perf_counter() - t) * 1e3
    t = time.perf_counter()
    fn = getattr(peer, "load_file", peer.load)(spec)  # mtok: its .mtok file
    loaded = time.perf_counter()
    fn("Hello, world!")
    done = time.perf_counter()
    return {"import_ms": import_ms, "load_ms": (done - t) * 1e3, "construct_ms": (loaded - t) * 1e3}


def job_batch(job, spec):
    return {"rows": batch.measure(spec, job["docs"], job["rounds"], tuple(job["threads"]))}


def job_windows(job, spec):
    return traffic.windows_pass(_peer(job["lib"]), spec, job["warm"], job["windows"])


def job_corpus(job, spec):
    return traffic.corpus_pass(_peer(job["lib"]), spec, job["chunks"], job["threads"])


def job_long(job, spec):
    return long_input.long_pass(_peer(job["lib"]), spec, job["windows"], job.get("warm"))


def job_first_seen(job, spec):
    return first_seen.first_seen_pass(_peer(job["lib"]), spec, job["texts"])


def job_memory(job, spec):
    return memory.memory_pass(_peer(job["lib"]), spec, job["mb"])


def job_version(job, spec):
    return {"versions": {n: _peer(n).version() for n in job["libs"]}}


JOBS = {"sized": job_sized, "cold": job_cold, "worst": job_worst, "load": job_load, "batch": job_batch,
        "windows": job_windows, "corpus": job_corpus, "long": job_long, "memory": job_memory,
        "first_seen": job_first_seen,
        "version": job_version}


def main(argv) -> int:
    with open(argv[1], encoding="utf-8") as f:
        job = json.load(f)
    spec = TokSpec.from_dict(job["spec"]) if job.get("spec") else None
    try:
        result = {"ok": True, **JOBS[job["job"]](job, spec)}
    except Exception as e:
        result = {"ok": False, "error": f"{type(e).__name__}: {e}"[:500]}
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
