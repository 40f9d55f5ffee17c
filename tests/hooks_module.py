"""mtok_testing: the unit-test hooks into the core's internals (regex,
unicode tables, normalization forms, scanners, type codes, token spans), built from
tests/hooks/*.cc into an extension of its own that no wheel installs.

hooks() builds it on first use with CMake (-DMTOK_TEST_HOOKS=ON) and imports
it: in build/dev when `make dev` configured that folder (its core is
already compiled there), else in build/test-hooks; MTOK_TEST_HOOKS_DIR
names another build folder (`make sanitize` points it at its ASan build).
"""

import functools
import importlib
import os
import subprocess
import sys
from pathlib import Path

from native_build import build_env

REPO = Path(__file__).resolve().parents[1]


def _build_dir() -> Path:
    given = os.environ.get("MTOK_TEST_HOOKS_DIR")
    if given:
        return Path(given)
    dev = REPO / "build" / "dev"
    return dev if (dev / "CMakeCache.txt").is_file() else REPO / "build" / "test-hooks"


def _run(cmd) -> None:
    proc = subprocess.run(cmd, cwd=str(REPO), capture_output=True, text=True, env=build_env())
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-20:])
        raise RuntimeError(f"building the test hooks failed: {' '.join(cmd)}\n{tail}")


@functools.lru_cache(maxsize=None)
def hooks():
    """The mtok_testing module, built first when needed."""
    build = _build_dir()
    configure = ["cmake", "-S", str(REPO), "-B", str(build), "-DMTOK_PYTHON=ON", "-DMTOK_TEST_HOOKS=ON",
                 f"-DPython_EXECUTABLE={sys.executable}"]
    if not (build / "CMakeCache.txt").is_file():
        configure.append("-DCMAKE_BUILD_TYPE=Release")
    _run(configure)
    _run(["cmake", "--build", str(build), "--target", "mtok_testing", "-j2"])
    sys.path.insert(0, str(build))
    return importlib.import_module("mtok_testing")
