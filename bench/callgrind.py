"""Instructions per encode from ``valgrind --tool=callgrind``: repeatable
where wall time on a shared machine is not. Each library runs the driver
twice, encoding one ~512-token string N times and 0 times; the difference
over N is the steady-state cost of one encode, with load and interpreter
start-up subtracted."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import rc3
from .subproc import REPO, _pythonpath


def available() -> bool:
    return shutil.which("valgrind") is not None


def _total_ir(out_file: str) -> int:
    # The header's summary, what callgrind_annotate reports as the total of
    # the cost lines: in a part dumped by `callgrind_control -d` the closing
    # totals line says more than they hold (callgrind 3.19: 18% more
    # instructions, twice the data reads). With --instr-atstart=no the
    # summary is 0 and the closing total is the count.
    summary = total = None
    with open(out_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"(summary|totals):\s+(\d+)", line)
            if m and m.group(1) == "summary":
                summary = int(m.group(2))
            elif m:
                total = int(m.group(2))
    if summary:
        return summary
    if total is not None:
        return total
    if summary is not None:
        return summary  # 0, and no closing total: nothing was counted
    raise RuntimeError(f"no instruction total in {out_file}")


def count(lib: str, spec, text: str, n: int, python=None) -> float:
    """Instructions per encode of `text` by `lib`."""
    with tempfile.TemporaryDirectory(prefix="mtok-callgrind-") as tmp:
        spec_path, text_path = os.path.join(tmp, "spec.json"), os.path.join(tmp, "text.txt")
        with open(spec_path, "w", encoding="utf-8") as f:
            json.dump(spec.to_dict(), f)
        with open(text_path, "w", encoding="utf-8") as f:
            f.write(text)
        # Fixed hash seed: both runs execute the same interpreter work.
        env = dict(os.environ, PYTHONPATH=_pythonpath(), PYTHONHASHSEED="0")
        driver = [python or sys.executable, "-m", "bench.callgrind_driver", lib, spec_path, text_path]
        # One uncounted run first: a library that writes a file cache on its
        # first load (mtok.get_encoding after a rebuild) must not do it
        # inside only one of the two counted runs.
        subprocess.run(driver + ["0"], env=env, cwd=str(REPO), capture_output=True, check=True)
        totals = []
        for reps in (n, 0):
            out = os.path.join(tmp, f"callgrind.{reps}.out")
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + driver + [str(reps)]
            proc = subprocess.run(cmd, env=env, cwd=str(REPO), capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError(f"{lib} under callgrind exited {proc.returncode}: "
                                   + " | ".join(proc.stderr.strip().splitlines()[-3:]))
            totals.append(_total_ir(out))
        return (totals[0] - totals[1]) / n


def run(spec, selected, text: str, *, n: int = 100, log=print) -> list:
    """Rows: instructions per encode for each selected library, and the
    ratio to mtok."""
    rows, mtok_ir = [], None
    for p in selected:
        if not p.supports(spec):
            continue
        log(f"  callgrind {spec.name}: {p.name} ({n} encodes + baseline)")
        row = {"tokenizer": spec.name, "lib": p.name, "bytes": len(text.encode("utf-8"))}
        try:
            row["instructions"] = count(p.name, spec, text, n, python=str(rc3.PYTHON) if p.remote else None)
            if p.name == "mtok":
                mtok_ir = row["instructions"]
        except Exception as e:
            row["error"] = f"{type(e).__name__}: {e}"[:300]
        rows.append(row)
    for row in rows:
        if mtok_ir and row.get("instructions"):
            row["ratio"] = row["instructions"] / mtok_ir
    return rows
