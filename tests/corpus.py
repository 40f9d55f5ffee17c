"""Access to ../shared/corpus for tests and benchmarks.

Tests read the corpus in place; a missing corpus skips them with a message
saying where it was looked for.
"""

import functools
import lzma
import os
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("MTOK_CORPUS", REPO.parent / "shared" / "corpus"))


def available() -> bool:
    return CORPUS.is_dir()


def require(*parts) -> Path:
    """Path inside the corpus; skips the calling test when it is absent."""
    import pytest

    path = CORPUS.joinpath(*parts)
    if not path.exists() and not path.with_name(path.name + ".xz").exists():
        pytest.skip(f"corpus file not found: {path} (set MTOK_CORPUS to the corpus folder)")
    return path


_XZ_DIR = Path(tempfile.gettempdir()) / f"mtok-corpus-{os.getuid()}"


def file_path(*parts) -> Path:
    """A corpus file, decompressed to a temp folder when stored as .xz."""
    path = require(*parts)
    if path.exists():
        return path
    out = _XZ_DIR.joinpath(*parts)
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + f".{os.getpid()}.tmp")
        with lzma.open(path.with_name(path.name + ".xz")) as src, open(tmp, "wb") as dst:
            dst.write(src.read())
        os.replace(tmp, out)
    # Keep sibling files (tokenizer_config.json) next to the decompressed one.
    for sibling in path.parent.iterdir():
        target = out.parent / sibling.name
        if sibling.suffix != ".xz" and not target.exists():
            target.write_bytes(sibling.read_bytes())
    return out


@functools.lru_cache(maxsize=None)
def text_files():
    """(name, text) of every corpus text file."""
    root = CORPUS / "text"
    out = []
    for p in sorted(root.rglob("*")):
        if p.is_file():
            out.append((str(p.relative_to(root)), p.read_bytes().decode("utf-8", errors="replace")))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def parity_strings():
    """Every non-empty line and paragraph of every text, plus whole files in
    4096-character chunks: the inputs of the parity tests."""
    out = []
    for _, text in text_files():
        out += [line for line in text.splitlines() if line.strip()]
        out += [p for p in text.split("\n\n") if p.strip()]
        out += [text[i:i + 4096] for i in range(0, len(text), 4096)]
    return tuple(out)


def hf_pair(name):
    """(HF tokenizers' Tokenizer, mtok.Tokenizer) for the corpus tokenizer.json
    `name`, the file's own truncation and padding switched off on both. Fresh
    objects: callers that share them cache them."""
    return hf_pair_at(file_path("tokenizers", name, "tokenizer.json"))


def hf_pair_at(path):
    """hf_pair for a tokenizer.json at `path` (a corpus file or a variant
    a test wrote)."""
    import pytest

    tokenizers = pytest.importorskip("tokenizers")
    import mtok

    ref = tokenizers.Tokenizer.from_file(str(path))
    ours = mtok.Tokenizer.from_file(path)
    for t in (ref, ours):
        t.no_truncation()
        t.no_padding()
    return ref, ours


def settled_debug_info(tok, timeout=30.0):
    """tok.debug_info() once no background work is running: byte-level
    BPE builds its short-token table on a thread of its own after the first
    encode (bpe_short_tokens says "being built" until then) and fills its
    byte-pair table on one after load (bpe_byte_pairs says "being filled"),
    and a Unigram model copies its trie onto huge pages on one after 64 KB
    of input (unigram_trie_pages says "being moved")."""
    import time

    def busy(info):
        return (info.get("bpe_short_tokens", "").startswith("being built")
                or "being filled" in info.get("bpe_byte_pairs", "")
                or info.get("unigram_trie_pages", "").startswith("being moved"))

    deadline = time.monotonic() + timeout
    while busy(info := tok.debug_info()):
        assert time.monotonic() < deadline, f"background work still running after {timeout} s: {info}"
        time.sleep(0.01)
    return info
