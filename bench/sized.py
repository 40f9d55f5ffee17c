"""The sized table: every library encodes the same strings of about N
tokens; p50/p99 µs per encode, MB/s, time ratio to mtok, ids vs reference."""

from . import peers as peers_mod
from . import rc3, texts, timing
from .peers import ids_digest
from .subproc import run_job


def reference_encoder(spec, loaded: dict):
    """The reference library's encode for `spec`, reusing a loaded one."""
    if spec.reference in loaded:
        return loaded[spec.reference]
    return peers_mod.BY_NAME[spec.reference].load(spec)


def match_of(digests, ref_digests):
    """True when every string's ids equal the reference's, else
    "k/n differ"; None when either side is missing."""
    if not digests or not ref_digests:
        return None
    bad = sum(a != b for a, b in zip(digests, ref_digests))
    return True if bad == 0 else f"{bad}/{len(digests)} differ"


def run(spec, selected, sizes, *, mix, budget_s, min_rounds, max_rounds, log=print) -> list:
    """Rows (dicts) for `spec` over `sizes`, one per size and library."""
    local = [p for p in selected if not p.remote]
    remote = [p for p in selected if p.remote and p.supports(spec)]
    encoders, errors = {}, {}
    for p in local:
        if not p.supports(spec):
            continue
        try:
            encoders[p.name] = p.load(spec)
        except Exception as e:
            errors[p.name] = f"{type(e).__name__}: {e}"[:200]
    ref = reference_encoder(spec, encoders)
    count = lambda s: len(ref(s))  # noqa: E731
    cells = {size: texts.sized_strings(count, size, mix) for size in sizes}
    ref_digests = {size: [ids_digest(ref(s)) for s in strings] for size, strings in cells.items()}

    remote_out = {}
    if remote:
        libs = [p.name for p in remote] + (["mtok"] if "mtok" in encoders else [])
        log(f"  {spec.name}: {', '.join(p.name for p in remote)} in its venv worker")
        res = run_job({"job": "sized", "spec": spec.to_dict(), "libs": libs,
                       "cells": {str(k): v for k, v in cells.items()}, "budget_s": budget_s,
                       "min_rounds": min_rounds, "max_rounds": max_rounds}, python=str(rc3.PYTHON))
        if res.get("ok"):
            remote_out = res["cells"]
            errors.update(res.get("errors", {}))
        else:
            errors.update({p.name: res["error"] for p in remote})

    rows = []
    for size, strings in cells.items():
        log(f"  {spec.name} @ {size} tokens: {len(strings)} strings, "
            f"{sum(len(s.encode()) for s in strings) / len(strings) / 1e3:.1f} kB each")
        got = timing.measure(encoders, strings, budget_s=budget_s, min_rounds=min_rounds,
                             max_rounds=max_rounds)
        mtok_p50 = got.get("mtok", {}).get("p50_us")
        mtok_p99 = got.get("mtok", {}).get("p99_us")
        cell_rows = []
        for name in [p.name for p in selected if p.supports(spec)]:
            row = {"tokenizer": spec.name, "size": size, "lib": name, "reference": spec.reference}
            if name in errors:
                row["error"] = errors[name]
            elif name in got:
                row.update(got[name])
                row["ratio"] = row["p50_us"] / mtok_p50 if mtok_p50 and "p50_us" in row else None
                row["ratio_p99"] = row["p99_us"] / mtok_p99 if mtok_p99 and "p99_us" in row else None
            elif name in remote_out.get(str(size), {}):
                theirs = remote_out[str(size)]
                row.update(theirs[name])
                # Against mtok timed in the same worker process, when it ran there.
                base = theirs.get("mtok", {}).get("p50_us") or mtok_p50
                base99 = theirs.get("mtok", {}).get("p99_us") or mtok_p99
                row["ratio"] = row["p50_us"] / base if base and "p50_us" in row else None
                row["ratio_p99"] = row["p99_us"] / base99 if base99 and "p99_us" in row else None
                row["ratio_basis"] = "worker" if theirs.get("mtok", {}).get("p50_us") else "host"
            row["match"] = match_of(row.pop("digests", None), ref_digests[size])
            cell_rows.append(row)
        rows += cell_rows
    return rows
