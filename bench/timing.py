"""Timing: libraries interleaved round by round over the same strings, so
the noise of a shared machine falls on all of them alike.

Standard library only (the worker venv imports it too).
"""

import contextlib
import gc
import math
import time


@contextlib.contextmanager
def gc_paused():
    """Python's collector off inside (after a collection, so none is due):
    a collection landing in one library's timed region is noise, not its
    cost, and a library whose import leaves more objects pays more for it."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def percentile(sorted_values, q: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, math.ceil(q / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


def summarize(samples_ns, sample_bytes) -> dict:
    """p50/p99 in µs, MB/s and the sample count.

    MB/s is the median of each encode's bytes/time: a mean over all time
    would be ruled by the few encodes a busy machine stalls for
    milliseconds (the p99 shows those)."""
    s = sorted(samples_ns)
    rates = sorted(b / max(t, 1) * 1e3 for t, b in zip(samples_ns, sample_bytes))  # bytes/ns*1e3 = MB/s
    return {
        "p50_us": percentile(s, 50) / 1e3,
        "p99_us": percentile(s, 99) / 1e3,
        "mb_s": percentile(rates, 50),
        "n": len(s),
    }


def measure(encoders: dict, strings: list, *, budget_s: float = 1.0,
            min_rounds: int = 3, max_rounds: int = 200) -> dict:
    """Times each encoder on every string, interleaved.

    encoders: name -> encode(text). One warm-up pass per encoder records the
    ids (returned as `ids`, one list per string) and sizes the run: rounds
    are chosen so the slowest encoder spends about `budget_s`. Each round
    visits the encoders in a rotated order and times every encode alone.
    Returns name -> summary (see summarize) plus "ids" and "error".
    """
    from .peers import ids_digest

    nbytes = [len(s.encode("utf-8")) for s in strings]
    out, warm = {}, {}
    for name, fn in encoders.items():
        t = time.perf_counter()
        try:
            ids = [fn(s) for s in strings]
        except Exception as e:  # a peer that cannot encode this text is reported, not fatal
            out[name] = {"error": f"{type(e).__name__}: {e}"[:200]}
            continue
        warm[name] = time.perf_counter() - t
        out[name] = {"digests": [ids_digest(x) for x in ids], "tokens": sum(len(x) for x in ids)}
    live = [n for n in encoders if n in warm]
    if not live:
        return out
    rounds = int(budget_s / max(max(warm.values()), 1e-9))
    rounds = max(min_rounds, min(max_rounds, rounds))
    samples = {n: [] for n in live}
    clock = time.perf_counter_ns
    with gc_paused():
        for r in range(rounds):
            order = live[r % len(live):] + live[:r % len(live)]
            for name in order:
                fn, bucket = encoders[name], samples[name]
                for s in strings:
                    t0 = clock()
                    fn(s)
                    bucket.append(clock() - t0)
            gc.collect()  # between rounds, outside the timed region
    for name in live:
        out[name].update(summarize(samples[name], nbytes * rounds))
    return out
