"""The traffic suite's window and corpus parts, against the 2026 peers.

*windows*: 2 KB and 64 KB windows cut from the mixed corpus text
(texts.windows), in a fresh process per library and size. Every other
window warms the process up (untimed: the vocabulary's pages faulted in,
caches holding the common words of every language, as in a server that
has run a while); then each of the others is encoded once (*unique*: no
library has seen it), then each once more in the same order (*repeated*:
a window comes back only after all the others, so no short cycle
flatters a whole-input cache).

*corpus*: one pass over all of the corpus text (texts.mixed_chunks: 8 kB
documents, the languages in turn) by a freshly loaded tokenizer (*cold*),
then a *second* pass over the same documents; then encode_batch over all
of them, twice, the second call timed (*batch*), on 1 and 2 threads (a
process per thread count: rayon pools read RAYON_NUM_THREADS at start).

Every part runs each library in `repeats` fresh processes, the libraries
taking turns, and keeps its best result; ids are checked against the
reference library's.
"""

import statistics
import time

from .peers import ids_digest
from .timing import gc_paused

# Encoded once before anything is timed, so lazy set-up is not timed.
# Not from the corpus.
WARM_TEXT = "Warm-up: 12 apples, 3 pears; naïve café — ok?"


def rss_kb(field: str = "VmRSS") -> int:
    """This process's resident set (VmRSS) or its peak (VmHWM), in kB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def thread_env(threads: int) -> dict:
    """The environment of a worker whose libraries use `threads` threads.
    fastokens sizes its own pool (not rayon's) from FASTOKENS_BPE_THREADS
    and, left to itself, encodes one input of 64 KiB or more on every core."""
    return {"RAYON_NUM_THREADS": str(threads), "MTOK_NUM_THREADS": str(threads),
            "FASTOKENS_BPE_THREADS": str(threads),
            "TOKENIZERS_PARALLELISM": "true" if threads > 1 else "false"}


def _timed_each(fn, strings):
    """ns per string and the ids, each encode timed alone, GC off."""
    clock = time.perf_counter_ns
    times, ids = [], []
    with gc_paused():
        for s in strings:
            t0 = clock()
            out = fn(s)
            times.append(clock() - t0)
            ids.append(out)
    return times, ids


# --- worker side (worker.py calls these in a fresh process) ---------------

def windows_pass(peer, spec, warm, windows) -> dict:
    fn = peer.load(spec)
    for w in [WARM_TEXT] + warm:
        fn(w)
    unique, first = _timed_each(fn, windows)
    repeated, again = _timed_each(fn, windows)
    digests = [ids_digest(x) for x in first]
    stable = digests == [ids_digest(x) for x in again]
    return {"unique_ns": unique, "repeated_ns": repeated, "digests": digests, "stable": stable}


def corpus_pass(peer, spec, chunks, threads) -> dict:
    nbytes = sum(len(c.encode("utf-8")) for c in chunks)
    before = rss_kb()
    fn = peer.load(spec)
    fn(WARM_TEXT)
    loaded = rss_kb()
    with gc_paused():
        t = time.perf_counter()
        first = [fn(c) for c in chunks]
        cold_s = time.perf_counter() - t
        digests = [ids_digest(x) for x in first]
        del first
        t = time.perf_counter()
        second = [fn(c) for c in chunks]
        second_s = time.perf_counter() - t
        stable = digests == [ids_digest(x) for x in second]
        del second
        out = {"cold_mb_s": nbytes / cold_s / 1e6, "second_mb_s": nbytes / second_s / 1e6,
               "digests": digests, "stable": stable, "load_rss_mb": (loaded - before) / 1024,
               "pass_rss_mb": (rss_kb("VmHWM") - loaded) / 1024}
        batch = peer.load_batch(spec, threads)
        if batch is not None:
            batch(chunks)
            t = time.perf_counter()
            got = batch(chunks)
            out["batch_mb_s"] = nbytes / (time.perf_counter() - t) / 1e6
            out["batch_match"] = [ids_digest(x) for x in got] == digests
    return out


# --- host side -----------------------------------------------------------

def fresh_rounds(spec, selected, job, repeats, env=None, log=print):
    """{lib: [result, ...]} (or {lib: error}) of `job` (a dict, without its
    "lib") run in a fresh worker process per library and repeat, the
    libraries taking turns in a rotated order. `env` defaults to
    thread_env(1): every library on one thread."""
    from . import rc3
    from .subproc import run_job

    libs = [p for p in selected if p.supports(spec)]
    results = {p.name: [] for p in libs}
    for r in range(repeats):
        for p in libs[r % len(libs):] + libs[:r % len(libs)]:
            if not isinstance(results[p.name], list):
                continue  # failed already
            res = run_job(dict(job, spec=spec.to_dict(), lib=p.name), env=env or thread_env(1),
                          python=str(rc3.PYTHON) if p.remote else None)
            results[p.name] = results[p.name] + [res] if res.get("ok") else res["error"]
    return results


def _reference(spec, strings):
    from .sized import reference_encoder

    ref = reference_encoder(spec, {})
    return [ids_digest(ref(s)) for s in strings]


def _percentiles(ns):
    """p50, p99 and mean µs of one process's encodes. The mean shows what a
    p50 hides when a library's speed differs by script: on the mixed text
    the p50 window is Latin, and a library fast there but slow on kana and
    CJK (nanotoken with bert-base-uncased) has a p50 well below its mean."""
    from .timing import percentile

    s = sorted(ns)
    return percentile(s, 50) / 1e3, percentile(s, 99) / 1e3, sum(s) / len(s) / 1e3


def run_windows(spec, selected, sizes_counts, *, repeats, text=None, log=print) -> list:
    """Rows for the windows part: for each (size in bytes, count), the
    unique and the repeated p50/p99 of each library, its best process.
    `text`: a corpus text file (texts.text_windows) to cut the windows from
    instead of the mixed text; as many as it holds, up to count."""
    from .sized import match_of
    from .texts import text_windows

    rows = []
    for size, count in sizes_counts:
        try:
            warm, strings = text_windows(size, count, text)
        except ValueError as e:  # a text file too short for this size: the other sizes still run
            rows.append({"tokenizer": spec.name, "size": size, "lib": "-", "error": str(e)})
            continue
        count = len(strings)
        ref = _reference(spec, strings)
        nbytes = sum(len(s.encode("utf-8")) for s in strings) / len(strings)
        log(f"  {spec.name} windows of {size} B of {text or 'the mixed text'}: {count} timed after {count} "
            f"untimed, {repeats} fresh process(es) per library")
        results = fresh_rounds(spec, selected, {"job": "windows", "warm": warm, "windows": strings}, repeats,
                               log=log)
        for kind in ("unique", "repeated"):
            cell = []
            for name, runs in results.items():
                row = {"tokenizer": spec.name, "size": size, "kind": kind, "lib": name, "windows": count,
                       "text": text or "mixed"}
                if isinstance(runs, str):
                    row["error"] = runs
                else:
                    p50, p99, mean = min((_percentiles(r[f"{kind}_ns"]) for r in runs), key=lambda x: x[0])
                    row.update(p50_us=p50, p99_us=p99, mean_us=mean, mb_s=nbytes / p50, processes=len(runs))
                    m = match_of(runs[0]["digests"], ref)
                    row["match"] = m if all(r["stable"] for r in runs) or m is not True else "unstable"
                cell.append(row)
            _ratios(cell, "p50_us", lower_is_better=True)
            rows += cell
    return rows


def run_corpus(spec, selected, chunks, *, repeats, threads=(1, 2), log=print) -> list:
    """Rows for the corpus part: cold, second and batch MB/s (best process)
    and the memory the passes took, one row per library and thread count
    (cold and second pass are single-thread encodes in both)."""
    from .sized import match_of

    ref = _reference(spec, chunks)
    nbytes = sum(len(c.encode("utf-8")) for c in chunks)
    log(f"  {spec.name} corpus: {len(chunks)} documents, {nbytes / 1e6:.2f} MB, "
        f"threads {threads}, {repeats} fresh process(es) per library and thread count")
    by_threads = {n: fresh_rounds(spec, selected, {"job": "corpus", "chunks": chunks, "threads": n}, repeats,
                                  env=thread_env(n), log=log) for n in threads}
    rows = []
    for n, results in by_threads.items():
        cell = []
        for name, runs in results.items():
            row = {"tokenizer": spec.name, "lib": name, "threads": n, "mb": nbytes / 1e6}
            if isinstance(runs, str):
                row["error"] = runs
                cell.append(row)
                continue
            for key in ("cold_mb_s", "second_mb_s", "batch_mb_s"):
                got = [r[key] for r in runs if key in r]
                row[key] = max(got) if got else None
            row["load_rss_mb"] = statistics.median(r["load_rss_mb"] for r in runs)
            row["pass_rss_mb"] = statistics.median(r["pass_rss_mb"] for r in runs)
            m = match_of(runs[0]["digests"], ref)
            if m is True and not all(r["stable"] and r.get("batch_match", True) for r in runs):
                m = "passes differ"
            row["match"] = m
            cell.append(row)
        for key in ("cold_mb_s", "second_mb_s", "batch_mb_s"):
            _ratios(cell, key, lower_is_better=False, out=key.replace("mb_s", "ratio"))
        rows += cell
    return rows


def _ratios(cell, key, *, lower_is_better, out="ratio"):
    """row[out] = how many times mtok's speed the row's is slower by: peer
    time / mtok time (above 1, mtok is faster). mtok's row is "mtok", or
    "mtok-np" when only that one ran."""
    base = next((r.get(key) for name in ("mtok", "mtok-np") for r in cell if r["lib"] == name), None)
    for r in cell:
        v = r.get(key)
        if base and v:
            r[out] = v / base if lower_is_better else base / v
