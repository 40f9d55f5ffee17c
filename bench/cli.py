"""``python -m bench`` / ``mtok bench``: the suites, their options, and
where results go (tables on stdout; JSON and PNG under bench/results/)."""

import argparse
import functools
import json
import time
from pathlib import Path

from . import environment, peers, report, specs, texts

RESULTS = Path(__file__).with_name("results")
SUITES = ("bpe", "unigram", "traffic", "load")
PARTS = ("sized", "cold", "cold-lang", "worst", "batch")
TRAFFIC_PARTS = ("windows", "corpus", "long", "long-warm", "memory", "first-seen")
# The traffic suite's libraries by default: mtok and the 2026 peers (the
# 2025 ones are 2-40x slower; --libs adds them).
TRAFFIC_LIBS = ("mtok", "mtok-np", "fastokens", "gigatoken", "tokie", "nanotoken", "tokenizers-rc3")
DEFAULT_SIZES = {"bpe": (128, 512, 4096, 16384), "unigram": (128, 512, 1024, 4096, 16384)}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by `python -m bench` and `mtok bench`."""
    p.add_argument("--suite", choices=SUITES + ("all",), default="all")
    p.add_argument("--quick", action="store_true", help="few strings and repeats: a sanity run, not a measurement")
    p.add_argument("--sizes", help="comma-separated token counts (default per suite)")
    p.add_argument("--tokenizers", help=f"comma-separated, from: {', '.join(specs.CATALOG)}")
    p.add_argument("--libs", help=f"comma-separated, from: {', '.join(peers.BY_NAME)} (default: all installed; mtok-np in the traffic suite only)")
    p.add_argument("--parts", help=f"parts of the bpe/unigram suites, or none (default {','.join(PARTS)}); "
                                   f"of the traffic suite: {','.join(TRAFFIC_PARTS)} (default all)")
    p.add_argument("--text", help="the traffic suite's windows part: cut the windows from this corpus text file "
                                   "(relative to the corpus text folder, say debian-handbook/ja-JP.txt) instead "
                                   "of the mixed text")
    p.add_argument("--memory-mb", type=int, help="MB of random words of the memory part (default 64, quick 4)")
    p.add_argument("--callgrind", action="store_true", help="also count instructions per 512-token encode")
    p.add_argument("--budget", type=float, help="seconds per size for the slowest library (default 1, quick 0.05)")
    p.add_argument("--out", default=str(RESULTS), help="folder for the JSON and PNG results")
    p.add_argument("--no-save", action="store_true", help="print tables only")
    p.add_argument("--setup-rc3", action="store_true", help="create the tokenizers-1.0.0rc3 venv first")
    p.add_argument("--no-snapshot", action="store_true",
                   help="import mtok from the tree in place, not from a private copy (see snapshot.py)")


def _csv(value):
    return [x.strip() for x in value.split(",") if x.strip()] if value else None


class Settings:
    """How hard to measure: full runs vs --quick."""

    def __init__(self, args):
        q = args.quick
        self.mix = texts.QUICK_MIX if q else texts.MIX
        self.budget_s = args.budget or (0.05 if q else 1.0)
        self.min_rounds, self.max_rounds = (2, 20) if q else (5, 200)
        self.cold_bytes = 256_000 if q else None
        self.cold_repeats = 1 if q else 5
        self.batch_bytes, self.batch_rounds = (128_000, 2) if q else (1_000_000, 25)
        self.load_repeats = 1 if q else 3
        self.callgrind_n = 20 if q else 100
        # traffic suite: (window bytes, count), processes per library, memory MB
        self.windows = ((2048, 20), (65536, 3)) if q else ((2048, 200), (65536, 24))
        self.traffic_repeats = 1 if q else 3
        self.memory_mb = args.memory_mb or (4 if q else 64)
        from .worstcase import QUICK_SIZES, SIZES

        self.worst_sizes = QUICK_SIZES if q else SIZES
        from .first_seen import PIECES as FIRST_SEEN_PIECES, QUICK_PIECES as FIRST_SEEN_QUICK
        from .long_input import QUICK_SIZES as LONG_QUICK, SIZES as LONG_SIZES

        self.long_sizes = LONG_QUICK if q else LONG_SIZES
        self.first_seen_pieces = FIRST_SEEN_QUICK if q else FIRST_SEEN_PIECES


def _suite_specs(suite, names):
    """The tokenizers of a suite: the given ones of its model kind (all of
    them for load), else its defaults."""
    unknown = [n for n in names or () if n not in specs.CATALOG]
    if unknown:
        raise SystemExit(f"unknown tokenizers {unknown}; known: {', '.join(specs.CATALOG)}")
    if suite == "load":
        return names or list(specs.LOAD_DEFAULT)
    if suite == "traffic":
        return names or list(specs.TRAFFIC_DEFAULT)
    if not names:
        return list(specs.BPE_DEFAULT if suite == "bpe" else specs.UNIGRAM_DEFAULT)
    return [n for n in names if (specs.CATALOG[n].model == "unigram") == (suite == "unigram")]


def run_encode_suite(suite, args, settings, selected, log, checkpoint=lambda out: None) -> dict:
    """The bpe or unigram suite: sized table, cold pass, worst cases, batch
    scaling and (optionally) callgrind, for each of its tokenizers.
    checkpoint(out) runs after every part, so a long run saves as it goes."""
    from . import batch, callgrind, cold, sized, worstcase

    parts = [p for p in _csv(args.parts or ",".join(PARTS)) if p != "none"]
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise SystemExit(f"unknown parts {sorted(unknown)}; known: {', '.join(PARTS)} (or none)")
    sizes = [int(s) for s in _csv(args.sizes)] if args.sizes else list(DEFAULT_SIZES[suite])
    out = {p: [] for p in parts + (["callgrind"] if args.callgrind else [])}
    for name in _suite_specs(suite, _csv(args.tokenizers)):
        spec = specs.resolve(name, with_mtok=any(p.reads_mtok for p in selected))
        log(f"[{suite}] {name}")

        def part(key, fn, *a, **kw):
            # One broken part (say, an API mid-change in the tree) is a row, not a crash.
            try:
                out[key] += fn(*a, **kw)
            except Exception as e:
                log(f"  {key} failed: {type(e).__name__}: {e}")
                out[key].append({"tokenizer": name, "lib": "-", "error": f"{type(e).__name__}: {e}"[:300]})
            checkpoint(out)

        if "sized" in parts:
            part("sized", sized.run, spec, selected, sizes, mix=settings.mix, budget_s=settings.budget_s,
                 min_rounds=settings.min_rounds, max_rounds=settings.max_rounds, log=log)
        if "cold" in parts:
            part("cold", cold.run, spec, selected, texts.cold_chunks(settings.cold_bytes),
                 repeats=settings.cold_repeats, log=log)
        if "cold-lang" in parts:
            for lang in texts.COLD_LANGUAGES:
                part("cold-lang", cold.run, spec, selected, texts.language_chunks(lang, settings.cold_bytes),
                     repeats=settings.cold_repeats, log=log, text=lang)
        if "worst" in parts:
            part("worst", worstcase.run, spec, selected, sizes=settings.worst_sizes, log=log)
        if "batch" in parts and spec.mtok:
            part("batch", batch.run, spec, texts.cold_chunks(settings.batch_bytes, 4096),
                 rounds=settings.batch_rounds, log=log)
        if args.callgrind:
            if not callgrind.available():
                log("  callgrind: valgrind not found (apt-get install valgrind)")
                continue
            counterpart = "sentencepiece" if suite == "unigram" else "tiktoken"
            chosen = [p for p in selected if p.name in ("mtok", counterpart)]
            ref = sized.reference_encoder(spec, {})
            text = texts.sized_strings(lambda s: len(ref(s)), 512, ("en",))[0]
            part("callgrind", callgrind.run, spec, chosen, text, n=settings.callgrind_n, log=log)
    return out


def run_traffic_suite(args, settings, selected, log, checkpoint=lambda out: None) -> dict:
    """The traffic suite: unique and repeated windows, cold and second pass
    over the corpus, long inputs, memory; each tokenizer from its
    tokenizer.json, every library in fresh processes."""
    from . import first_seen, long_input, memory, traffic

    parts = _csv(args.parts) or list(TRAFFIC_PARTS)
    unknown = set(parts) - set(TRAFFIC_PARTS)
    if unknown:
        raise SystemExit(f"unknown traffic parts {sorted(unknown)}; known: {', '.join(TRAFFIC_PARTS)}")
    if not args.libs:
        selected = peers.select([p.name for p in peers.ALL if p.name in TRAFFIC_LIBS and p.available()])
    out = {p: [] for p in parts}
    reps = settings.traffic_repeats
    for name in _suite_specs("traffic", _csv(args.tokenizers)):
        spec = specs.resolve(name, with_mtok=any(p.reads_mtok for p in selected))
        log(f"[traffic] {name}")
        jobs = {"windows": lambda: traffic.run_windows(spec, selected, settings.windows, repeats=reps,
                                                       text=args.text, log=log),
                "corpus": lambda: traffic.run_corpus(spec, selected, _corpus_chunks(args.quick), repeats=reps,
                                                     log=log),
                "long": lambda: long_input.run(spec, selected, sizes=settings.long_sizes, repeats=reps, log=log),
                "long-warm": lambda: long_input.run(spec, selected, sizes=settings.long_sizes, repeats=reps,
                                                    warm=True, log=log),
                "memory": lambda: memory.run(spec, selected, mb=settings.memory_mb, log=log),
                "first-seen": lambda: first_seen.run(spec, selected, pieces=settings.first_seen_pieces,
                                                     repeats=reps, log=log)}
        for key in parts:
            try:
                out[key] += jobs[key]()
            except Exception as e:
                log(f"  {key} failed: {type(e).__name__}: {e}")
                out[key].append({"tokenizer": name, "lib": "-", "error": f"{type(e).__name__}: {e}"[:300]})
            checkpoint(out)
    return out


def _corpus_chunks(quick):
    chunks = texts.mixed_chunks()
    return chunks[::12] if quick else chunks  # quick: every 12th document (~0.5 MB)


# Flushed: a crash of a native library must not swallow what came before.
_print = functools.partial(print, flush=True)


def run(argv=None, log=_print) -> dict:
    """Runs the chosen suites; returns {suite: {part: rows}} plus "meta"."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    add_arguments(parser)
    return run_args(parser.parse_args(argv), log)


def run_args(args, log=_print) -> dict:
    from . import rc3

    if args.setup_rc3:
        log(f"setting up {rc3.VENV} ...")
        rc3.setup()
    if not args.no_snapshot:
        from .snapshot import use_snapshot

        where = use_snapshot()
        if where:
            log(f"mtok imported from a snapshot of the tree: {where}")
    settings = Settings(args)
    selected = peers.select(_csv(args.libs))
    missing = [p.name for p in selected if not p.available()]
    if missing:
        hint = " (python -m bench --setup-rc3)" if "tokenizers-rc3" in missing else ""
        raise SystemExit(f"not installed: {', '.join(missing)}{hint}")
    if any(p.reads_mtok for p in selected):
        from .mtok_export import isolate_encoding_cache

        isolate_encoding_cache()
    log(environment.summary(selected))
    results = {"meta": {"machine": environment.machine(), "versions": environment.versions(selected),
                        "argv": vars(args), "started": time.strftime("%Y-%m-%d %H:%M:%S")}}
    suites = SUITES if args.suite == "all" else (args.suite,)
    for suite in suites:
        t = time.perf_counter()
        if suite == "load":
            from . import load_table

            names = _suite_specs("load", _csv(args.tokenizers))
            want_mtok = any(p.reads_mtok for p in selected)
            resolved = [specs.resolve(n, with_mtok=want_mtok) for n in names]
            log("[load]")
            results["load"] = {"load": load_table.run(resolved, selected, repeats=settings.load_repeats, log=log)}
        else:
            def checkpoint(partial, suite=suite):
                if not args.no_save:
                    results[suite] = partial
                    _save(suite, results, Path(args.out), lambda *_: None, plot=False)

            if suite == "traffic":
                results[suite] = run_traffic_suite(args, settings, selected, log, checkpoint)
            else:
                results[suite] = run_encode_suite(suite, args, settings, selected, log, checkpoint)
        for part, rows in results[suite].items():
            if rows:
                log(report.render(part, rows))
        log(f"[{suite}] done in {time.perf_counter() - t:.0f} s")
        if not args.no_save:
            _save(suite, results, Path(args.out), log)
    return results


def _save(suite, results, out: Path, log, plot=True) -> None:
    from .plot import sized_plot

    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{suite}.json"
    path.write_text(json.dumps({"meta": results["meta"], suite: results[suite]}, indent=1, default=str))
    log(f"saved {path}")
    rows = results[suite].get("sized", [])
    if plot and rows and sized_plot(rows, out / f"{suite}.png", f"{suite}: µs per encode (p50 solid, p99 dashed)"):
        log(f"saved {out / f'{suite}.png'}")


def main(argv=None) -> int:
    run(argv)
    return 0
