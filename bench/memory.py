"""Memory: the resident set a library adds while it encodes many MB of
unique random words (no pre-token repeats, so a cache that keeps every
one grows with the input), in a fresh process per library. A bounded
cache holds the growth near its bound."""

import random

from .traffic import WARM_TEXT, fresh_rounds, rss_kb

CHUNK = 1 << 20
LETTERS = bytes(range(ord("a"), ord("z") + 1))
# 256 byte values -> 26 letters, the rest spaces: words of ~1-20 letters.
_TABLE = bytes((LETTERS * 10)[:230]) + b" " * 26


def random_words(seed: int, nbytes: int) -> str:
    """nbytes of lowercase random words separated by spaces."""
    return random.Random(seed).randbytes(nbytes).translate(_TABLE).decode("ascii")


def memory_pass(peer, spec, mb) -> dict:
    """Worker side: RSS growth over `mb` MB of random words, 1 MB a call."""
    before = rss_kb()
    fn = peer.load(spec)
    fn(WARM_TEXT)
    loaded = rss_kb()
    for k in range(mb):
        fn(random_words(k, CHUNK))
    return {"load_mb": (loaded - before) / 1024, "peak_growth_mb": (rss_kb("VmHWM") - loaded) / 1024,
            "end_growth_mb": (rss_kb() - loaded) / 1024}


def run(spec, selected, *, mb, env=None, log=print) -> list:
    log(f"  {spec.name} memory: {mb} MB of unique random words, 1 MB per encode, fresh process each")
    results = fresh_rounds(spec, selected, {"job": "memory", "mb": mb}, 1, env=env, log=log)
    rows = []
    for name, runs in results.items():
        row = {"tokenizer": spec.name, "lib": name, "input_mb": mb}
        if isinstance(runs, str):
            row["error"] = runs
        else:
            row.update(runs[0])
            row.pop("ok", None)
        rows.append(row)
    return rows
