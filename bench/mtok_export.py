"""The .mtok file of each tokenizer, exported once and cached.

The cache key covers the source file and the mtok code that writes and
reads .mtok (converter and writer sources, the native module), so a rebuild
by another engineer re-exports instead of loading a stale file.
"""

import hashlib
import os
import time
from pathlib import Path

from . import corpus

STALE_S = 86400  # exports of other builds are removed once this old


def source_of(spec) -> str:
    """The file mtok converts: the rank file for OpenAI encodings (as
    mtok.get_encoding does), else tokenizer.json, else the .model."""
    return spec.tiktoken or spec.json or spec.spm


def _fingerprint() -> str:
    import mtok

    root = Path(mtok.__file__).parent
    h = hashlib.sha1()
    files = sorted(list((root / "convert").glob("*.py")) + list((root / "format").glob("*.py"))
                   + list(root.glob("_native*")))
    for f in files:
        st = f.stat()
        h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:12]


def exported_path(spec) -> Path:
    src = source_of(spec)
    st = os.stat(src)
    key = hashlib.sha1(f"{src}:{st.st_size}:{st.st_mtime_ns}:{_fingerprint()}".encode()).hexdigest()[:16]
    out = corpus.SCRATCH / "mtok" / f"{spec.name}-{key}.mtok"
    if not out.exists():
        import mtok

        out.parent.mkdir(parents=True, exist_ok=True)
        # Tokenizer.save writes via a temp file and rename: concurrent runs are safe.
        mtok.Tokenizer.from_file(src).save(out)
        # Stale exports of older builds, once a day old: a run that started
        # before a rebuild still loads its own build's export in its workers.
        for old in out.parent.glob(f"{spec.name}-*.mtok"):
            if (old != out and old.name.count("-") == out.name.count("-")
                    and time.time() - old.stat().st_mtime > STALE_S):
                old.unlink(missing_ok=True)
    return out


def isolate_encoding_cache() -> None:
    """Points mtok.get_encoding's .mtok cache ($MTOK_CACHE_DIR) at a folder
    keyed like the exports, unless the caller set one: a cache written by an
    older build of the tree must not be what the benchmark loads.
    Worker processes inherit it."""
    if "MTOK_CACHE_DIR" not in os.environ:
        os.environ["MTOK_CACHE_DIR"] = str(corpus.SCRATCH / "encodings" / _fingerprint())
