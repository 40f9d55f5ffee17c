"""The shared corpus (../shared/corpus, or $MTOK_CORPUS): paths, .xz files
decompressed once to a temp folder, and the text pools the suites cut from."""

import functools
import lzma
import os
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("MTOK_CORPUS", REPO.parent / "shared" / "corpus"))
# Per-user scratch: decompressed corpus files and exported .mtok files.
SCRATCH = Path(tempfile.gettempdir()) / f"mtok-bench-{os.getuid()}"


def available() -> bool:
    return CORPUS.is_dir()


def file_path(rel: str) -> Path:
    """A corpus file by its path inside the corpus; a ``.xz`` twin is
    decompressed once into SCRATCH (the corpus is read-only)."""
    path = CORPUS / rel
    if path.exists():
        return path
    packed = path.with_name(path.name + ".xz")
    if not packed.exists():
        raise FileNotFoundError(f"corpus file not found: {path} (set MTOK_CORPUS)")
    out = SCRATCH / "corpus" / rel
    if not out.exists() or out.stat().st_mtime < packed.stat().st_mtime:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
        with lzma.open(packed) as src, open(tmp, "wb") as dst:
            dst.write(src.read())
        os.replace(tmp, out)
    return out


@functools.lru_cache(maxsize=None)
def read_text(rel: str) -> str:
    return (CORPUS / "text" / rel).read_bytes().decode("utf-8", errors="replace")


# Text pools. The sized strings come from these; the cold pass uses
# COLD_TEXTS, which none of the pools contain, so no cache has seen it.
ENGLISH = ("debian-handbook/en-US.txt", "sentencepiece/botchan.txt", "fortunes/en_literature.txt")
MULTILINGUAL = tuple(f"debian-handbook/{lang}.txt" for lang in
                     ("fr-FR", "ru-RU", "zh-CN", "ja-JP", "ar-MA", "vi-VN"))
CODE = ("code/unigram_model.cc", "code/textwrap.py", "code/byte_level.rs",
        "code/unigram_model.rs", "code/npm_install.js")
COLD_TEXTS = tuple(f"debian-handbook/{lang}.txt" for lang in
                   ("de-DE", "es-ES", "ko-KR", "el-GR", "tr-TR", "zh-TW", "fa-IR"))



def all_text_files() -> tuple:
    """Every file under the corpus text folder, by path inside it, sorted."""
    root = CORPUS / "text"
    return tuple(sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()))


POOLS = {"en": ENGLISH, "multi": MULTILINGUAL, "code": CODE}


@functools.lru_cache(maxsize=None)
def pool_text(kind: str) -> str:
    """One pool's files joined by blank lines."""
    return "\n\n".join(read_text(rel) for rel in POOLS[kind])
