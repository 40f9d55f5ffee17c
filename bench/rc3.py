"""tokenizers 1.0.0rc3 in its own venv (build/bench-venv-rc3/): it cannot
share an environment with tokenizers 0.23, so its timings come from a
worker process in that venv, fed the same strings through a file."""

import subprocess
import sys
from pathlib import Path

from .subproc import REPO

VENV = REPO / "build" / "bench-venv-rc3"
PYTHON = VENV / "bin" / "python"
REQUIREMENTS = Path(__file__).with_name("requirements-rc3.txt")


def _dist_info():
    return sorted(VENV.glob("lib/python*/site-packages/tokenizers-*.dist-info"))


def venv_ready() -> bool:
    return PYTHON.exists() and bool(_dist_info())


def version() -> str:
    info = _dist_info()
    return info[-1].name[len("tokenizers-"):-len(".dist-info")] if info else "?"


def setup(quiet: bool = True) -> None:
    """Creates the venv and installs bench/requirements-rc3.txt into it
    (pip --pre: 1.0.0rc3 is a pre-release)."""
    if not PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    cmd = [str(PYTHON), "-m", "pip", "install", "--pre", "-r", str(REQUIREMENTS)]
    subprocess.run(cmd + (["--quiet"] if quiet else []), check=True)
