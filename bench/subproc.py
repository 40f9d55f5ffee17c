"""Running a worker job (worker.py) in a fresh process and reading its answer."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _pythonpath() -> str:
    """The repo (for `bench`) and the folder mtok is imported from, so the
    worker imports the same mtok as the host."""
    parts = [str(REPO)]
    try:
        import mtok

        parts.append(str(Path(mtok.__file__).resolve().parents[1]))
    except ImportError:
        pass
    old = os.environ.get("PYTHONPATH")
    return os.pathsep.join(parts + ([old] if old else []))


def run_job(job: dict, python: str = None, timeout: float = 600, env: dict = None) -> dict:
    """Runs `job` with `python` (this interpreter by default), with `env`
    added to the environment. A crash or time-out comes back as
    {"ok": False, "error": ...}."""
    with tempfile.TemporaryDirectory(prefix="mtok-bench-") as tmp:
        job_path, out_path = os.path.join(tmp, "job.json"), os.path.join(tmp, "out.json")
        with open(job_path, "w", encoding="utf-8") as f:
            json.dump(job, f)
        # One OpenBLAS thread: importing numpy (mtok-np, gigatoken) starts
        # BLAS threads that spin about 110 ms of CPU right after the import,
        # inside the first timed pass, on a machine of two cores.
        env = {"OPENBLAS_NUM_THREADS": "1", **os.environ, **(env or {}), "PYTHONPATH": _pythonpath()}
        try:
            proc = subprocess.run([python or sys.executable, "-m", "bench.worker", job_path, out_path],
                                  env=env, cwd=str(REPO), capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"ok": False, "error": f"timed out after {timeout:.0f} s"}
        if not os.path.exists(out_path):
            tail = (proc.stderr or "").strip().splitlines()[-2:]
            how = f"killed by signal {-proc.returncode}" if proc.returncode < 0 else f"exited {proc.returncode}"
            return {"ok": False, "error": f"worker {how}" + (f": {' | '.join(tail)}" if tail else "")}
        with open(out_path, encoding="utf-8") as f:
            return json.load(f)
