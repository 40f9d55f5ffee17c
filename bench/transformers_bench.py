"""transformers plain against transformers patched by mtok, interleaved in
one process, outputs checked equal.

    PYTHONPATH=src python bench/transformers_bench.py [folder ...] [--rounds N]

For each corpus tokenizer folder: `tok(batch)` on 256 real texts (lines
and paragraphs of every corpus language, in turn), and 256 single
`tok.encode(text)` calls; plain and patched alternate round by round and the
medians are compared. Every timed call's output is checked against the
other library's. Prints a markdown table (bench/README.md keeps the runs).
"""

import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "hf"))

BATCH = 256
FOLDERS = ("bert-base-uncased", "gemma3", "gpt-4o-o200k-hf", "gpt2", "llama2", "llama3",
           "mistral-7b-v0.1", "qwen3", "t5-small", "xlm-roberta")


def real_texts(n=BATCH):
    """n texts, one per corpus file in turn: lines and paragraphs of
    20-2000 characters."""
    from corpus import text_files

    per_file = []
    for _, text in text_files():
        pieces = [p for p in text.replace("\n\n", "\n").split("\n") if 20 <= len(p) <= 2000]
        if pieces:
            per_file.append(pieces[len(pieces) // 7:])
    out, k = [], 0
    while len(out) < n:
        pieces = per_file[k % len(per_file)]
        out.append(pieces[(k // len(per_file)) % len(pieces)])
        k += 1
    return out


def timed(fn):
    # Let the other library's worker threads go idle first: HF's rayon
    # workers spin for a while after a batch, and on 2 CPUs they would take
    # the CPU from whichever call comes next.
    time.sleep(0.05)
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def bench_folder(name, texts, rounds):
    from transformers import AutoTokenizer
    from transformers_pairs import folder, unpatched

    import mtok

    path = folder(name)
    with unpatched():
        plain = AutoTokenizer.from_pretrained(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error", mtok.hf.FallbackWarning)
        patched = AutoTokenizer.from_pretrained(path)
    assert isinstance(patched._tokenizer, mtok.hf.TransformersBackend), name
    cases = {
        "batch": lambda tok: tok(texts)["input_ids"],
        "single": lambda tok: [tok.encode(t) for t in texts],
    }
    times = {(case, lib): [] for case in cases for lib in ("plain", "mtok")}
    for case, run in cases.items():
        run(plain), run(patched)  # warm
        for _ in range(rounds):
            tp, a = timed(lambda: run(plain))
            tm, b = timed(lambda: run(patched))
            if a != b:
                raise AssertionError(f"{name} {case}: patched output differs from plain transformers")
            times[(case, "plain")].append(tp)
            times[(case, "mtok")].append(tm)
    return {case: (statistics.median(times[(case, "plain")]), statistics.median(times[(case, "mtok")]))
            for case in cases}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", default=FOLDERS)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(argv)
    import mtok

    mtok.patch_transformers()
    texts = real_texts()
    nbytes = sum(len(t.encode()) for t in texts)
    print(f"{len(texts)} texts, {nbytes / 1e3:.0f} kB; {args.rounds} interleaved rounds; "
          f"MTOK_NUM_THREADS={os.environ.get('MTOK_NUM_THREADS', 'all CPUs')}, {os.cpu_count()} CPUs")
    print("| folder | tok(batch) plain ms | patched ms | speed-up | 256 x encode plain ms | patched ms | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.folders:
        r = bench_folder(name, texts, args.rounds)
        (bp, bm), (sp, sm) = r["batch"], r["single"]
        print(f"| {name} | {bp * 1e3:.1f} | {bm * 1e3:.1f} | {bp / bm:.2f}x | {sp * 1e3:.1f} | "
              f"{sm * 1e3:.1f} | {sp / sm:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
