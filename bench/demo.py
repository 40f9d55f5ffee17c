#!/usr/bin/env python3
"""`make demo`: export a real tokenizer to .mtok, load it, encode and decode
real multilingual text, and compare speed with the peers installed here."""

import os
import sys
import tempfile
import time
from pathlib import Path

import mtok

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("MTOK_CORPUS", REPO.parent / "shared" / "corpus"))


def timed(fn, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def main() -> int:
    src = CORPUS / "tokenizers" / "llama3" / "tokenizer.json"
    text_path = CORPUS / "text" / "debian-handbook" / "en-US.txt"
    if not src.exists() or not text_path.exists():
        print(f"demo needs the corpus at {CORPUS} (set MTOK_CORPUS)", file=sys.stderr)
        return 1
    out = Path(tempfile.gettempdir()) / "mtok-demo-llama3.mtok"
    t = time.perf_counter()
    mtok.Tokenizer.from_file(src).save(out)
    print(f"exported {src.relative_to(CORPUS)} -> {out} ({out.stat().st_size / 1e6:.1f} MB) "
          f"in {time.perf_counter() - t:.2f} s")

    t = time.perf_counter()
    tok = mtok.Tokenizer.from_file(out)
    print(f"loaded .mtok in {(time.perf_counter() - t) * 1e3:.1f} ms: {tok!r}")

    samples = ["Hello, world! mtok encodes exactly like the reference.",
               "机器学习模型需要分词器。", "Tiếng Việt có dấu.", "Привет, мир!"]
    for s in samples:
        ids = tok.encode(s, add_special_tokens=False)
        print(f"  {s!r} -> {ids[:12]}{' ...' if len(ids) > 12 else ''} -> {tok.decode(ids)!r}")

    lines = [l for l in text_path.read_text(encoding="utf-8").splitlines() if l.strip()][:20000]
    nbytes = sum(len(l.encode()) for l in lines)
    print(f"\nspeed: {len(lines)} lines of the English Debian handbook ({nbytes / 1e6:.1f} MB), one thread")
    rows = []
    secs, ours = timed(lambda: [tok.encode(l, add_special_tokens=False) for l in lines])
    rows.append(("mtok", secs, True))
    try:
        import tokenizers

        ref = tokenizers.Tokenizer.from_file(str(src))
        secs, theirs = timed(lambda: [ref.encode(l, add_special_tokens=False).ids for l in lines])
        rows.append((f"tokenizers {tokenizers.__version__}", secs, theirs == ours))
    except ImportError:
        pass
    for name, secs, same in rows:
        print(f"  {name:<22} {nbytes / secs / 1e6:7.2f} MB/s  {secs / rows[0][1]:5.2f}x mtok's time  ids match: {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
