"""Long single inputs: one encode of 16 KB to 1 MB of mixed corpus text,
in a fresh process per library, size and thread count (1 and 2), each of
a few distinct windows encoded once. mtok may split one long encode on
its thread pool (MTOK_NUM_THREADS); the rayon peers get RAYON_NUM_THREADS.
The speedup column is each library's 2-thread MB/s over its 1-thread.
The warm variant (part long-warm) first encodes 1 MB of other text in the
same process, as a server that has been running does."""

import time

from .timing import gc_paused
from .traffic import WARM_TEXT, fresh_rounds, thread_env

SIZES = (16 << 10, 64 << 10, 256 << 10, 1 << 20)
QUICK_SIZES = (16 << 10, 64 << 10)
WINDOWS = 3  # distinct windows per size
WARM_BYTES = 1 << 20


def warm_text() -> str:
    """1 MB of the mixed text between the first and second windows of
    every size: windows start at 0, a third and two thirds of the text
    (at most 200 bytes later, on a line) and are at most 1 MB long."""
    from .texts import mixed_text

    data = mixed_text().encode("utf-8")
    start = max(SIZES) + 4096
    if start + WARM_BYTES > len(data) // WINDOWS:
        raise ValueError(f"{len(data)} bytes of text leave no 1 MB between the first two windows")
    return data[start:start + WARM_BYTES].decode("utf-8", "ignore")


def long_pass(peer, spec, windows, warm=None) -> dict:
    """Worker side: `warm` (if any) encoded first, then each window once;
    the windows' seconds and digests."""
    from .peers import ids_digest

    fn = peer.load(spec)
    fn(WARM_TEXT)
    if warm:
        fn(warm)
    seconds, digests = [], []
    with gc_paused():
        for w in windows:
            t = time.perf_counter()
            ids = fn(w)
            seconds.append(time.perf_counter() - t)
            digests.append(ids_digest(ids))
            del ids  # freed here, not inside the next window's timing
    return {"seconds": seconds, "digests": digests}


def run(spec, selected, *, sizes=SIZES, repeats, threads=(1, 2), warm=False, log=print) -> list:
    from .sized import match_of
    from .texts import windows
    from .traffic import _reference

    rows = []
    before = warm_text() if warm else None
    for size in sizes:
        strings = windows(size, WINDOWS)
        ref = _reference(spec, strings)
        nbytes = sum(len(s.encode("utf-8")) for s in strings) / len(strings)
        log(f"  {spec.name} long inputs of {size >> 10} KB{' after 1 MB' if warm else ''}: {WINDOWS} windows, "
            f"threads {threads}")
        best = {}
        for n in threads:
            results = fresh_rounds(spec, selected, {"job": "long", "windows": strings, "warm": before}, repeats,
                                   env=thread_env(n), log=log)
            for name, runs in results.items():
                row = {"tokenizer": spec.name, "lib": name, "size": size, "threads": n}
                if isinstance(runs, str):
                    row["error"] = runs
                else:
                    # Per window its best process, then the median window.
                    per_window = sorted(min(r["seconds"][k] for r in runs) for k in range(len(strings)))
                    row["mb_s"] = nbytes / per_window[len(per_window) // 2] / 1e6
                    row["match"] = match_of(runs[0]["digests"], ref)
                    if any(r["digests"] != runs[0]["digests"] for r in runs):
                        row["match"] = "processes differ"
                    if n != threads[0] and name in best:
                        row["speedup"] = row["mb_s"] / best[name]
                    else:
                        best[name] = row["mb_s"]
                rows.append(row)
    return rows
