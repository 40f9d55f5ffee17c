"""Builds one program of tests/native (CMake with -DMTOK_NATIVE_TESTS=ON:
the core only, no Python) into build/native, shared by the tests that run
those programs so that the core compiles once for all of them."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BUILD = REPO / "build" / "native"


def build_env() -> dict:
    """The environment for the build tools: without the libasan that
    `make sanitize` preloads into the interpreter (gmake, not instrumented,
    trips strict_string_checks in its own strndup)."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def build_native_target(target: str, build_dir: Path = BUILD) -> Path:
    """The path of `target`, configured and built first (fails the test,
    with CMake's output, when that does not work)."""
    for tool in ("cmake", "c++"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is needed to build the native test program {target}")
    configure = ["cmake", "-S", str(REPO), "-B", str(build_dir), "-DMTOK_NATIVE_TESTS=ON",
                 "-DCMAKE_BUILD_TYPE=Release"]
    build = ["cmake", "--build", str(build_dir), "-j2", "--target", target]
    for cmd in (configure, build):
        run = subprocess.run(cmd, capture_output=True, text=True, env=build_env())
        assert run.returncode == 0, f"{' '.join(cmd)} failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return build_dir / "tests" / "native" / target
