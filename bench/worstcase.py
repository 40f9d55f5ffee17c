"""Worst-case inputs (one huge pre-token and friends) and a growth run
that shows whether time stays linear: tiktoken issue 195 is quadratic
time on one long pre-token.

Standard library only (the worker venv imports it too).
"""

import random
import time

MB = 1 << 20


# Each maker takes a variant number: repeated runs get different inputs, so
# no library's whole-input or pre-token cache turns a repeat into a lookup.

def repeat_char(n: int, variant: int = 0) -> str:
    """One character n times: a single pre-token for every pattern."""
    return "abc"[variant % 3] * n


def random_letters(n: int, variant: int = 0) -> str:
    """n random ASCII letters, no spaces: one long pre-token of varied pairs."""
    rng = random.Random(195 + variant)
    return "".join(rng.choices("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", k=n))


def random_latin1(n: int, variant: int = 0) -> str:
    """n random bytes decoded as Latin-1: controls, symbols and accented letters."""
    return random.Random(196 + variant).randbytes(n).decode("latin-1")


CASES = {"repeat-char": repeat_char, "random-letters": random_letters, "random-latin1": random_latin1}

SIZES = (64 << 10, 128 << 10, 256 << 10, 512 << 10, MB, 2 * MB)
QUICK_SIZES = (64 << 10, 128 << 10)


def growth(fn, make, sizes=SIZES, limit_s: float = 20.0, progress=None) -> dict:
    """Times fn(make(n, variant)) for growing n; each size best of up to 3
    runs (on 3 variants) while runs are short; ids from variant 0. Stops before a size whose time, if quadratic, could
    pass limit_s; progress(n) is called before each size. Returns times (s) by size, ids digest at the largest
    size run, and `doubling`: t(largest)/t(half of it)."""
    from .peers import ids_digest

    times, digest, stopped = {}, None, None
    for n in sizes:
        prev = times.get(n // 2)
        if prev is not None and prev * 4 > limit_s:
            stopped = n
            break
        if progress:
            progress(n)
        best = float("inf")
        for variant in range(3):
            text = make(n, variant)
            t = time.perf_counter()
            ids = fn(text)
            best = min(best, time.perf_counter() - t)
            if variant == 0:
                digest = ids_digest(ids)
            if best > 0.2:
                break
        times[n] = best
    largest = max(times) if times else None
    doubling = (times[largest] / times[largest // 2]
                if largest and largest // 2 in times and times[largest // 2] > 0 else None)
    return {"times": {str(k): v for k, v in times.items()}, "digest": digest,
            "largest": largest, "doubling": doubling, "stopped_at": stopped}


def run(spec, selected, *, sizes=SIZES, limit_s: float = 20.0, log=print) -> list:
    """Rows for every case and library: time at the largest size run and
    the doubling ratio. Each library runs in a worker process of its own
    (its venv for tokenizers-1.0): an abort on a hostile input (kitoken's
    Rust panics end the process) then costs one row, not the run."""
    from . import rc3
    from .peers import BY_NAME
    from .subproc import run_job

    results = {}
    for p in selected:
        if not p.supports(spec):
            continue
        log(f"  {spec.name} worst cases: {p.name}")
        results[p.name] = {}
        for case in CASES:  # one process per case: a crash loses only that case
            res = run_job({"job": "worst", "spec": spec.to_dict(), "lib": p.name, "cases": [case],
                           "sizes": list(sizes), "limit_s": limit_s},
                          python=str(rc3.PYTHON) if p.remote else None, timeout=10 * limit_s + 120)
            results[p.name][case] = res[case] if res.get("ok") else res["error"]
    ref = results.get(spec.reference)
    if ref is None:  # reference not run: its ids, untimed, at the top size
        fn = BY_NAME[spec.reference].load(spec)
        ref = {c: growth(fn, make, (max(sizes),), limit_s) for c, make in CASES.items()}
    rows = []
    for case in CASES:
        mtok_t = None
        case_rows = []
        for name, res in results.items():
            row = {"tokenizer": spec.name, "case": case, "lib": name, "reference": spec.reference}
            r = res[case]
            if isinstance(r, str):
                row["error"] = r
            else:
                row.update(size=r["largest"], seconds=r["times"][str(r["largest"])],
                           doubling=r["doubling"], stopped_at=r["stopped_at"])
                theirs = ref[case]
                same_size = isinstance(theirs, dict) and theirs["largest"] == r["largest"]
                row["match"] = (r["digest"] == theirs["digest"]) if same_size else None
                if name == "mtok":
                    mtok_t = (r["largest"], row["seconds"])
            case_rows.append(row)
        for row in case_rows:
            if mtok_t and row.get("size") == mtok_t[0]:
                row["ratio"] = row["seconds"] / mtok_t[1]
        rows += case_rows
    return rows
