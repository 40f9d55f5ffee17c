"""Builds the native SDK once per session: libmtok with plain CMake (no
Python), installed to a temp prefix, then the C test programs and the
examples against that prefix, with find_package(mtok) and with pkg-config.

The library's build folder is build/capi-lib, kept between runs (with
ccache, or unchanged sources, a rebuild takes seconds). With
MTOK_CAPI_SANITIZE=1 (make sanitize) the library and the programs are
built with ASan and UBSan (build/capi-asan), and the programs run with
leak checking on."""

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(REPO / "tests" / "chat"))  # chat_cases


SANITIZE = os.environ.get("MTOK_CAPI_SANITIZE") == "1"
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"]


def child_env(extra=None):
    """The environment of the tools and programs: without the LD_PRELOAD of
    `make sanitize` (it is for the Python process); sanitized programs
    check leaks and stop at the first error."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    if SANITIZE:
        env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1:strict_string_checks=1"
        env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    env.update(extra or {})
    return env


def run(cmd, env=None):
    """Runs cmd; a failure shows its output."""
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=child_env(env))
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(map(str, cmd))} failed ({proc.returncode}):\n"
                    f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc.stdout


@dataclass
class Sdk:
    prefix: Path
    programs: Path  # tests/capi built with find_package(mtok)
    pkg_config_driver: Path  # capi_driver.c built with pkg-config's flags
    work: Path

    def driver(self, kind="cmake"):
        return {"cmake": self.programs / "capi_driver", "static": self.programs / "capi_driver_static",
                "pkg-config": self.pkg_config_driver}[kind]


@pytest.fixture(scope="session")
def sdk(tmp_path_factory):
    for tool in ("cmake", "cc", "c++", "pkg-config"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is needed to build and test the native SDK")
    work = tmp_path_factory.mktemp("sdk")
    prefix = work / "prefix"
    build = REPO / "build" / ("capi-asan" if SANITIZE else "capi-lib")
    build_type = "RelWithDebInfo" if SANITIZE else "Release"
    run(["cmake", "-S", REPO, "-B", build, f"-DCMAKE_BUILD_TYPE={build_type}",
         f"-DMTOK_SANITIZE={'ON' if SANITIZE else 'OFF'}"])
    run(["cmake", "--build", build, "-j2"])
    run(["cmake", "--install", build, "--prefix", prefix])

    programs = work / "capi-tests"
    run(["cmake", "-S", HERE, "-B", programs, f"-DCMAKE_PREFIX_PATH={prefix}", f"-DCMAKE_BUILD_TYPE={build_type}",
         f"-DMTOK_SANITIZE_TESTS={'ON' if SANITIZE else 'OFF'}"])
    run(["cmake", "--build", programs, "-j2"])

    env = {"PKG_CONFIG_PATH": str(prefix / "lib" / "pkgconfig")}
    flags = run(["pkg-config", "--cflags", "--libs", "mtok"], env=env).split()
    libdir = run(["pkg-config", "--variable=libdir", "mtok"], env=env).strip()
    pc_driver = work / "capi_driver_pc"
    run(["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O2", *(SANITIZER_FLAGS if SANITIZE else []),
         HERE / "capi_driver.c", "-o", pc_driver, *flags, f"-Wl,-rpath,{libdir}"])
    return Sdk(prefix, programs, pc_driver, work)


@pytest.fixture(scope="session")
def mtok_files(tmp_path_factory):
    """name -> .mtok path of a corpus tokenizer, exported on first use."""
    import corpus
    import mtok

    folder = tmp_path_factory.mktemp("mtok-files")
    cache = {}

    def get(name):
        if name not in cache:
            source = {"llama2": ("tokenizers", "llama2", "tokenizer.model")}.get(
                name, ("tokenizers", name, "tokenizer.json"))
            path = corpus.file_path(*source)
            src = path if path.suffix == ".model" else path.parent
            out = folder / f"{name}.mtok"
            mtok.Tokenizer.from_file(src).save(out)
            cache[name] = out
        return cache[name]

    return get
