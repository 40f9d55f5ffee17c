"""The cold pass: a freshly loaded tokenizer in a fresh process encodes a
large unseen multilingual text once (in document-sized chunks), so no
cache of any library has seen a byte of it."""

import time


def one_pass(peer, spec, chunks) -> dict:
    """Loads `spec` with `peer`, then encodes every chunk once. Runs inside
    a worker process (see worker.py), one process per pass."""
    from .peers import ids_digest

    t = time.perf_counter()
    fn = peer.load(spec)
    load_s = time.perf_counter() - t
    t = time.perf_counter()
    ids = [fn(c) for c in chunks]
    pass_s = time.perf_counter() - t
    nbytes = sum(len(c.encode("utf-8")) for c in chunks)
    return {"load_ms": load_s * 1e3, "pass_s": pass_s, "mb_s": nbytes / pass_s / 1e6,
            "tokens": sum(len(x) for x in ids), "digests": [ids_digest(x) for x in ids]}


def run(spec, selected, chunks, *, repeats: int = 3, log=print, text: str = "mix") -> list:
    """Rows for the cold pass of `spec` over `chunks` (named `text` in the
    rows): each library in `repeats` fresh processes (the tokenizers-1.0
    one in its venv); median MB/s."""
    import statistics

    from . import rc3
    from .subproc import run_job

    nbytes = sum(len(c.encode("utf-8")) for c in chunks)
    log(f"  {spec.name} cold pass ({text}): {len(chunks)} chunks, {nbytes / 1e6:.2f} MB, {repeats} fresh process(es) each")
    # Round-robin over the libraries, so that a noisy spell of the machine
    # falls on all of them rather than on one library's runs.
    results = {p.name: [] for p in selected if p.supports(spec)}
    for _ in range(repeats):
        for p in selected:
            if not isinstance(results.get(p.name), list):
                continue  # unsupported, or failed already
            res = run_job({"job": "cold", "spec": spec.to_dict(), "lib": p.name, "chunks": chunks},
                          python=str(rc3.PYTHON) if p.remote else None)
            results[p.name] = res["error"] if not res.get("ok") else results[p.name] + [res]
    from .sized import match_of

    ref_runs = results.get(spec.reference)
    if isinstance(ref_runs, list) and ref_runs:
        ref_digests = ref_runs[0]["digests"]
    else:
        from .peers import BY_NAME, ids_digest

        fn = BY_NAME[spec.reference].load(spec)
        ref_digests = [ids_digest(fn(c)) for c in chunks]
    rows = []
    mtok_mb_s = None
    for name, runs in results.items():
        row = {"tokenizer": spec.name, "text": text, "lib": name, "mb": nbytes / 1e6,
               "reference": spec.reference}
        if isinstance(runs, str):
            row["error"] = runs
        else:
            row["mb_s"] = statistics.median(r["mb_s"] for r in runs)
            row["load_ms"] = statistics.median(r["load_ms"] for r in runs)
            row["tokens"] = runs[0]["tokens"]
            row["match"] = match_of(runs[0]["digests"], ref_digests)
            if name == "mtok":
                mtok_mb_s = row["mb_s"]
        rows.append(row)
    for row in rows:  # time ratio = mtok MB/s / peer MB/s
        if mtok_mb_s and row.get("mb_s"):
            row["ratio"] = mtok_mb_s / row["mb_s"]
    return rows
