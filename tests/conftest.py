import functools
import gc
import os
import tempfile

import pytest

from corpus import available


def pytest_configure(config):
    """Converted tokenizers go to a cache of the session's own (unless the
    caller chose one), not to the user's."""
    if "MTOK_CACHE_DIR" not in os.environ:
        os.environ["MTOK_CACHE_DIR"] = config._mtok_cache = tempfile.mkdtemp(prefix="mtok-test-cache-")


def pytest_report_header(config):
    from corpus import CORPUS

    return f"corpus: {CORPUS} ({'found' if available() else 'MISSING: corpus tests skip'})"


def pytest_unconfigure(config):
    """Drops what the session's caches hold (tokenizers memoized by test
    helpers and fixtures' lru_caches), so that the interpreter frees them
    before nanobind checks at exit for bound objects still alive: its
    report of such "leaks" reads as a reference counting bug, and would
    hide a real one among the cached objects."""
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper):
            obj.cache_clear()
    gc.collect()
    if getattr(config, "_mtok_cache", None):
        import shutil

        shutil.rmtree(config._mtok_cache, ignore_errors=True)
