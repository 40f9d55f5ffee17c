"""Instructions per unique window, from callgrind.

``PYTHONPATH=src:tests python -m bench.callgrind_windows [--tokenizers a,b]
[--libs mtok,fastokens] [--size 2048] [--n 50] [--warm 0] [--seen] [--cache-sim]``

Each library runs in a fresh process under valgrind twice: it loads the
tokenizer, encodes a short warm-up string and `--warm` windows (every other
window of the mixed corpus text, as the traffic suite's untimed half), then
N windows of the other half (each once: unique to the process), and the
same with N = 0. The difference over N is the cost of one first-seen
window, Python call included. With ``--seen`` the N windows are warm-up
windows encoded again (every pre-token a cache hit): unique minus seen is
what a window's first-seen pre-tokens cost. ``--cache-sim`` adds
callgrind's cache simulation, ``--d1`` its first-level size (say 1 MB,
this machine's L2; valgrind 3.19 sizes the last level from the CPU here
and ignores --LL).
``--collect DIR`` keeps both runs' callgrind
files (DIR/<tokenizer>.<lib>.<N>.out, for callgrind_annotate).
``--toggle`` runs once instead, counting only the N windows: the counts
are zeroed before them and dumped after (`callgrind_control -z`, `-d`),
the caches simulated all along, so the windows meet them as warm as the
warm-up left them. The two-run difference moves by up to 20K a window
with where the cache's growth lands (and a library that hashes with a
random seed at load moves it more), this by about 50 instructions.
(Instrumenting only the windows, `callgrind_control -i`, would start the
simulated caches empty there: most of the misses it counted were of
tables the warm-up had read.) With ``--seen`` that is the cost of a
window of cached pre-tokens whose text is a new str (its UTF-8 not yet
made by CPython). ``--text FILE`` cuts the windows from one corpus text
file (texts.text_windows) instead of the mixed text.

Driver side: ``python -m bench.callgrind_windows --drive LIB SPEC.json
TEXTS.json N [toggle]``.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

from .callgrind import _total_ir
from .subproc import REPO, _pythonpath


def _drive(argv) -> int:
    from .specs import TokSpec
    from .traffic import WARM_TEXT
    from .worker import _peer

    lib, spec_path, texts_path, n = argv[0], argv[1], argv[2], int(argv[3])
    toggle = len(argv) > 4 and argv[4] == "toggle"
    with open(spec_path, encoding="utf-8") as f:
        spec = TokSpec.from_dict(json.load(f))
    with open(texts_path, encoding="utf-8") as f:
        texts = json.load(f)
    fn = _peer(lib).load(spec)
    fn(WARM_TEXT)
    for w in texts["warm"]:
        fn(w)
    if toggle:
        subprocess.run(["callgrind_control", "-z", str(os.getpid())], capture_output=True, check=True)
    for w in texts["timed"][:n]:
        fn(w)
    if toggle:
        subprocess.run(["callgrind_control", "-d", str(os.getpid())], capture_output=True, check=True)
    return 0


def count(lib, spec, warm, timed, n, python=None, keep=None, cache_sim=False, caches=(), toggle=False):
    with tempfile.TemporaryDirectory(prefix="mtok-cgw-") as tmp:
        spec_path, texts_path = os.path.join(tmp, "spec.json"), os.path.join(tmp, "texts.json")
        with open(spec_path, "w", encoding="utf-8") as f:
            json.dump(spec.to_dict(), f)
        with open(texts_path, "w", encoding="utf-8") as f:
            json.dump({"warm": warm, "timed": timed}, f)
        env = dict(os.environ, PYTHONPATH=_pythonpath(), PYTHONHASHSEED="0")
        driver = [python or sys.executable, "-m", "bench.callgrind_windows", "--drive", lib, spec_path, texts_path]
        subprocess.run(driver + ["0"], env=env, cwd=str(REPO), capture_output=True, check=True)
        totals = []
        for reps in ((n,) if toggle else (n, 0)):
            out = os.path.join(tmp, f"callgrind.{reps}.out")
            cmd = (["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
                   + (["--cache-sim=yes", "--branch-sim=yes", *caches] if cache_sim else [])
                   + driver + [str(reps)] + (["toggle"] if toggle else []))
            proc = subprocess.run(cmd, env=env, cwd=str(REPO), capture_output=True, text=True)
            if proc.returncode != 0:
                raise RuntimeError(f"{lib} under callgrind exited {proc.returncode}: "
                                   + " | ".join(proc.stderr.strip().splitlines()[-3:]))
            counted = f"{out}.1" if toggle else out  # the dump after the windows
            totals.append(_total_ir(counted))
            if keep:
                os.replace(counted, f"{keep}.{reps}.out")
        return (totals[0] - (0 if toggle else totals[1])) / n


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--drive":
        return _drive(argv[1:])
    ap = argparse.ArgumentParser(prog="python -m bench.callgrind_windows")
    ap.add_argument("--tokenizers", default="llama3,qwen3,o200k-hf")
    ap.add_argument("--libs", default="mtok,fastokens,gigatoken")
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--count", type=int, default=400, help="windows cut (half warm, half timed)")
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--warm", type=int, default=0)
    ap.add_argument("--cache-sim", action="store_true", help="also simulate the caches (slower; see the kept files)")
    ap.add_argument("--d1", default=None, help="simulated D1 cache as size,assoc,line (e.g. 1048576,16,64)")
    ap.add_argument("--seen", action="store_true", help="time warm-up windows again (all hits) instead of unique ones")
    ap.add_argument("--collect", default=None, help="folder for the N runs' callgrind files")
    ap.add_argument("--toggle", action="store_true",
                    help="one run, counting only the N windows (callgrind_control); steadier than the two-run difference")
    ap.add_argument("--text", default=None,
                    help="cut the windows from this corpus text file (relative to the corpus text folder)")
    args = ap.parse_args(argv)

    from . import peers, rc3
    from .specs import resolve
    from .texts import text_windows

    warm_all, timed_all = text_windows(args.size, args.count // 2, args.text)
    # Spread the N timed windows over the whole text.
    step = max(1, len(timed_all) // args.n)
    timed = timed_all[::step][:args.n]
    warm = warm_all[::max(1, len(warm_all) // args.warm)][:args.warm] if args.warm else []
    if args.seen:
        if len(warm) < len(timed):
            raise SystemExit("--seen times warm-up windows again: give --warm at least --n")
        timed = warm[:len(timed)]
    caches = [f"--D1={args.d1}"] if args.d1 else []
    if args.collect:
        os.makedirs(args.collect, exist_ok=True)
    for name in args.tokenizers.split(","):
        spec = resolve(name)
        base = None
        for lib in args.libs.split(","):
            p = peers.BY_NAME[lib]
            if not p.supports(spec):
                continue
            keep = os.path.join(args.collect, f"{name}.{lib}") if args.collect else None
            ir = count(lib, spec, warm, timed, len(timed), python=str(rc3.PYTHON) if p.remote else None, keep=keep,
                       cache_sim=args.cache_sim, caches=caches, toggle=args.toggle)
            base = base or (ir if lib == "mtok" else None)
            ratio = f" ({ir / base:.2f}x mtok)" if base and lib != "mtok" else ""
            print(f"{name} {lib}: {ir / 1e3:,.0f}K instructions per {args.size} B window"
                  f" (n={len(timed)}, warm={len(warm)}){ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
