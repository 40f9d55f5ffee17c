"""Loads from source files, mtok against the reference library of each
format, every load in a fresh process:

- *mtok first*: ``Tokenizer.from_file(source)`` with an empty cache
  (conversion, cache write, mapping the entry) + the first encode;
- *mtok cached*: the same call again, the entry now in the cache;
- *reference*: tokenizers 1.0.0rc3 (its venv) for tokenizer.json,
  sentencepiece for .model, tiktoken for .tiktoken, + the first encode.

Each child times wall and CPU time (``time.process_time``, all threads:
less noisy than wall time on a shared machine) and reports its resident
memory after the load (``/proc/self/statm``), and how much of it the
library's import and load added to the bare interpreter's: the reference
tokenizers 1.0 runs in its own venv, whose interpreter starts with less
resident than one whose site-packages run .pth hooks at startup, so only
the growth compares. Libraries are imported before the clock starts. The
rounds interleave the libraries. The .pyc files of src/mtok are compiled
first, as an installed package has them.

    PYTHONPATH=src:tests python -m bench.source_load [--rounds 3] [--tokenizers a,b]
        [--formats .model,.tiktoken] [--before ../other/src]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Child code: stdlib only before the timed part (it runs in the rc3 venv too).
CHILD = r"""
import json, os, sys, time
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
bare = rss()
job = json.loads(sys.argv[1])
lib, path = job["lib"], job["path"]
if lib == "mtok":
    import mtok
    load = lambda: mtok.Tokenizer.from_file(path)
    enc = lambda t: t.encode("Hello, world!")
elif lib == "tokenizers":
    import tokenizers
    load = lambda: tokenizers.Tokenizer.from_file(path)
    enc = lambda t: t.encode("Hello, world!")
elif lib == "sentencepiece":
    import sentencepiece
    load = lambda: sentencepiece.SentencePieceProcessor(model_file=path)
    enc = lambda t: t.encode("Hello, world!")
else:
    import tiktoken, tiktoken.load, tiktoken_ext.openai_public as public
    params = getattr(public, job["encoding"])
    def load():
        original = public.load_tiktoken_bpe
        public.load_tiktoken_bpe = lambda _url, expected_hash=None: original(path, expected_hash)
        try:
            return tiktoken.Encoding(**params())
        finally:
            public.load_tiktoken_bpe = original
    enc = lambda t: t.encode_ordinary("Hello, world!")
w, c = time.perf_counter(), time.process_time()
tok = load()
enc(tok)
wall, cpu = time.perf_counter() - w, time.process_time() - c
after = rss()
print(json.dumps({"wall_ms": wall * 1e3, "cpu_ms": cpu * 1e3, "rss_mb": after / 1e6,
                  "rss_growth_mb": (after - bare) / 1e6}))
"""


def sources(names=None):
    """(tokenizer, format, path, reference lib, encoding) of the corpus."""
    sys.path.insert(0, str(REPO))
    from bench import specs

    out = []
    for name, spec in specs.CATALOG.items():
        if names and name not in names:
            continue
        s = specs.resolve(name, with_mtok=False)
        if s.json:
            out.append((name, "tokenizer.json", s.json, "tokenizers", None))
        if s.spm and not spec.spm.startswith("built:"):
            out.append((name, ".model", s.spm, "sentencepiece", None))
        if s.tiktoken:
            out.append((name, ".tiktoken", s.tiktoken, "tiktoken", s.encoding))
    return out


def _child(lib, path, encoding, env, python=sys.executable):
    job = json.dumps({"lib": lib, "path": path, "encoding": encoding})
    out = subprocess.run([python, "-c", CHILD, job], env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1][:200] if out.stderr.strip() else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(rounds=3, names=None, log=print, src=REPO / "src", before=None, formats=None) -> list:
    from bench import rc3

    for folder in [src] + ([before] if before else []):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(folder) / "mtok")], check=False)
    env = dict(os.environ, PYTHONPATH=str(src))
    rows = []
    for name, kind, path, ref, encoding in sources(names):
        if formats and kind not in formats:
            continue
        if ref == "tokenizers" and not rc3.venv_ready():
            raise SystemExit(f"{rc3.VENV}: no tokenizers 1.0.0rc3 venv for the tokenizer.json references; "
                             "make it once with `python -m bench --setup-rc3`, or pass --formats .model,.tiktoken")
        got = {"ref": [], "first": [], "cached": []}
        if before:
            got["before"] = []
        python = str(rc3.PYTHON) if ref == "tokenizers" else sys.executable
        for _ in range(rounds):
            if before:  # another checkout's first load, in the same round
                with tempfile.TemporaryDirectory(prefix="mtok-load-cache-") as cache:
                    got["before"].append(_child("mtok", path, encoding,
                                                dict(env, PYTHONPATH=str(before), MTOK_CACHE_DIR=cache)))
            with tempfile.TemporaryDirectory(prefix="mtok-load-cache-") as cache:
                mtok_env = dict(env, MTOK_CACHE_DIR=cache)
                got["first"].append(_child("mtok", path, encoding, mtok_env))
                got["ref"].append(_child(ref, path, encoding, env, python))
                got["cached"].append(_child("mtok", path, encoding, mtok_env))
        row = {"tokenizer": name, "format": kind, "reference": "tokenizers-rc3" if ref == "tokenizers" else ref}
        for part, runs in got.items():
            errors = [r["error"] for r in runs if "error" in r]
            if errors:
                row[f"{part}_error"] = errors[0]
                continue
            for key in ("wall_ms", "cpu_ms", "rss_mb", "rss_growth_mb"):
                row[f"{part}_{key}"] = statistics.median(r[key] for r in runs)
        rows.append(row)
        log(format_row(row))
    return rows


def format_row(r) -> str:
    def cell(part, key, fmt):
        v = r.get(f"{part}_{key}")
        if v is not None and fmt == "{:.0f}" and v < 20:
            fmt = "{:.1f}"  # a .model's few ms: a whole number hides the ratio
        return fmt.format(v) if v is not None else r.get(f"{part}_error", "-")[:40]

    ratio = ""
    if r.get("first_cpu_ms") and r.get("ref_cpu_ms"):
        ratio = f"{r['first_cpu_ms'] / r['ref_cpu_ms']:.2f}"
    before = ""
    if "before_cpu_ms" in r or "before_error" in r:
        before = f"{cell('before', 'cpu_ms', '{:.0f}')} | "
    return (f"| {r['tokenizer']} | {r['format']} | {r['reference']} | {cell('ref', 'cpu_ms', '{:.0f}')} "
            f"({cell('ref', 'wall_ms', '{:.0f}')}) | {before}{cell('first', 'cpu_ms', '{:.0f}')} "
            f"({cell('first', 'wall_ms', '{:.0f}')}) | {ratio} | {cell('cached', 'cpu_ms', '{:.1f}')} "
            f"({cell('cached', 'wall_ms', '{:.1f}')}) | {cell('ref', 'rss_growth_mb', '{:.1f}')} | "
            f"{cell('first', 'rss_growth_mb', '{:.1f}')} | {cell('cached', 'rss_growth_mb', '{:.1f}')} |")


HEADER = ("| tokenizer | source | reference | reference ms CPU (wall) | mtok first ms CPU (wall) | first/ref "
          "| mtok cached ms CPU (wall) | RSS growth MB ref | RSS growth first | RSS growth cached |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tokenizers", default="", help="comma-separated names from bench/specs.py")
    p.add_argument("--out", default=None, help="write the rows as JSON here")
    p.add_argument("--src", default=str(REPO / "src"),
                   help="the folder holding the mtok package to time (another checkout's src/ for a before/after)")
    p.add_argument("--before", default=None,
                   help="another checkout's src/ (with its own native module) whose first load is timed in the "
                        "same rounds: a 'before' column")
    p.add_argument("--formats", default="", help="comma-separated: tokenizer.json, .model, .tiktoken")
    args = p.parse_args(argv)
    print(HEADER if not args.before else HEADER.replace("| mtok first", "| before ms CPU | mtok first")
          .replace("|---|---|---|---|---|", "|---|---|---|---|---|---|", 1))
    rows = run(args.rounds, [n for n in args.tokenizers.split(",") if n] or None, src=args.src,
               before=args.before, formats=[f for f in args.formats.split(",") if f] or None)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
