"""A private copy of the mtok package for the length of a run.

In a shared tree another engineer's `make dev` copies a new _native .so
over the one this process has mapped, which crashes it (SIGSEGV/SIGILL)
mid-run. Importing mtok from a snapshot also means every part of a run
measures one build.
"""

import hashlib
import importlib.util
import shutil
import sys
from pathlib import Path

from . import corpus


def use_snapshot(keep: int = 3) -> str:
    """Copies the mtok package that would be imported to SCRATCH/snapshots
    and puts that first on sys.path (workers inherit it through
    subproc's PYTHONPATH). Returns the folder mtok is imported from; does
    nothing when mtok is already imported or not found."""
    if "mtok" in sys.modules:
        return str(Path(sys.modules["mtok"].__file__).resolve().parents[1])
    spec = importlib.util.find_spec("mtok")
    if spec is None or not spec.origin:
        return ""
    src = Path(spec.origin).parent
    files = sorted(p for p in src.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    h = hashlib.sha1()
    for f in files:
        st = f.stat()
        h.update(f"{f.relative_to(src)}:{st.st_size}:{st.st_mtime_ns};".encode())
    root = corpus.SCRATCH / "snapshots"
    dest = root / h.hexdigest()[:16]
    if not (dest / "mtok" / "__init__.py").exists():
        tmp = root / f"{dest.name}.{id(files)}.tmp"
        shutil.copytree(src, tmp / "mtok", ignore=shutil.ignore_patterns("__pycache__"))
        try:
            tmp.rename(dest)
        except OSError:  # a concurrent run made the same snapshot
            shutil.rmtree(tmp, ignore_errors=True)
    dest.touch()
    for old in sorted(root.iterdir(), key=lambda p: p.stat().st_mtime)[:-keep]:
        if old != dest:
            shutil.rmtree(old, ignore_errors=True)
    sys.path.insert(0, str(dest))
    return str(dest)
