"""The load table: ms from nothing to the first ids, per tokenizer and
library, each load in a fresh process (imports done before the clock
starts). mtok loads its .mtok export (mmap); peers load their own format."""

import statistics

from . import rc3
from .subproc import run_job


def run(specs, selected, *, repeats: int = 3, log=print) -> list:
    rows = []
    for spec in specs:
        got = {}
        for p in selected:
            if not p.supports(spec):
                continue
            runs = []
            for _ in range(repeats):
                res = run_job({"job": "load", "spec": spec.to_dict(), "lib": p.name},
                              python=str(rc3.PYTHON) if p.remote else None, timeout=300)
                if not res.get("ok"):
                    runs = res["error"]
                    break
                runs.append(res)
            got[p.name] = runs
        mtok_ms = None
        spec_rows = []
        for name, runs in got.items():
            row = {"tokenizer": spec.name, "lib": name}
            if isinstance(runs, str):
                row["error"] = runs
            else:
                for key in ("load_ms", "construct_ms", "import_ms"):
                    values = [r[key] for r in runs if r.get(key) is not None]
                    row[key] = statistics.median(values) if values else None
                if name == "mtok":
                    mtok_ms = row["load_ms"]
            spec_rows.append(row)
        for row in spec_rows:
            if mtok_ms and row.get("load_ms"):
                row["ratio"] = row["load_ms"] / mtok_ms
        log(f"  load {spec.name}: " + ", ".join(
            f"{r['lib']} {r['load_ms']:.1f} ms" if "load_ms" in r else f"{r['lib']} error" for r in spec_rows))
        rows += spec_rows
    return rows
