"""Plain-text tables of the rows the suites return."""


def _fmt(value, spec):
    if value is None:
        return "-"
    if spec == "match":
        return "True" if value is True else ("False" if value is False else f"False ({value})")
    if isinstance(value, str):
        return value
    return format(value, spec)


def table(rows, columns, title=None) -> str:
    """columns: (header, key, format spec). The first two columns are
    left-aligned labels, the rest right-aligned numbers. A row with an
    "error" shows its labels and the error instead of numbers."""
    head = [h for h, _, _ in columns]
    body = [[_fmt(r.get(k), f) for _, k, f in columns] for r in rows]
    widths = [max([len(h)] + [len(b[i]) for b, r in zip(body, rows) if "error" not in r])
              for i, h in enumerate(head)]

    def line(cells):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    lines = ([title] if title else []) + [line(head)]
    for b, r in zip(body, rows):
        lines.append(line(b[:2]) + "  error: " + r["error"] if "error" in r else line(b))
    return "\n".join(x.rstrip() for x in lines)


SIZED = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("tokens", "size", "d"),
         ("p50 µs", "p50_us", ".1f"), ("p99 µs", "p99_us", ".1f"), ("MB/s", "mb_s", ".2f"),
         ("×mtok", "ratio", ".2f"), ("×mtok p99", "ratio_p99", ".2f"), ("n", "n", "d"),
         ("ids match", "match", "match"))
COLD = (("tokenizer", "tokenizer", ""), ("text", "text", ""), ("lib", "lib", ""), ("MB", "mb", ".2f"), ("MB/s", "mb_s", ".2f"),
        ("load ms", "load_ms", ".1f"), ("×mtok", "ratio", ".2f"), ("ids match", "match", "match"))
WORST = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("case", "case", ""), ("chars", "size", "d"),
         ("s", "seconds", ".3f"), ("t(2n)/t(n)", "doubling", ".2f"), ("×mtok", "ratio", ".2f"),
         ("ids match", "match", "match"))
BATCH = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("threads", "threads", "d"), ("docs", "docs", "d"),
         ("MB/s", "mb_s", ".2f"), ("speedup", "speedup", ".2f"), ("machine", "machine", ".2f"),
         ("ids match", "match", "match"))
LOAD = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("load ms", "load_ms", ".1f"),
        ("construct ms", "construct_ms", ".1f"), ("import ms", "import_ms", ".0f"), ("×mtok", "ratio", ".2f"))
CALLGRIND = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("bytes", "bytes", "d"),
             ("instr/encode", "instructions", ",.0f"), ("×mtok", "ratio", ".2f"))

WINDOWS = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("text", "text", ""), ("bytes", "size", "d"),
           ("kind", "kind", ""),
           ("p50 µs", "p50_us", ".1f"), ("p99 µs", "p99_us", ".1f"), ("mean µs", "mean_us", ".1f"),
           ("MB/s", "mb_s", ".2f"), ("×mtok", "ratio", ".2f"), ("windows", "windows", "d"),
           ("ids match", "match", "match"))
CORPUS = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("threads", "threads", "d"), ("MB", "mb", ".2f"),
          ("cold MB/s", "cold_mb_s", ".1f"), ("×mtok", "cold_ratio", ".2f"),
          ("second MB/s", "second_mb_s", ".1f"), ("×mtok ", "second_ratio", ".2f"),
          ("batch MB/s", "batch_mb_s", ".1f"), ("×mtok  ", "batch_ratio", ".2f"),
          ("load RSS MB", "load_rss_mb", ".1f"), ("pass RSS MB", "pass_rss_mb", ".1f"),
          ("ids match", "match", "match"))
LONG = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("bytes", "size", "d"), ("threads", "threads", "d"),
        ("MB/s", "mb_s", ".2f"), ("speedup", "speedup", ".2f"), ("ids match", "match", "match"))
MEMORY = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("input MB", "input_mb", "d"),
          ("load MB", "load_mb", ".1f"), ("peak growth MB", "peak_growth_mb", ".1f"),
          ("end growth MB", "end_growth_mb", ".1f"))
FIRST_SEEN = (("tokenizer", "tokenizer", ""), ("lib", "lib", ""), ("bytes", "class", ""), ("pieces", "pieces", "d"),
              ("µs/piece", "us_per_piece", ".2f"), ("×mtok", "ratio", ".2f"), ("ids match", "match", "match"))

COLUMNS = {"sized": SIZED, "cold": COLD, "cold-lang": COLD, "worst": WORST, "batch": BATCH, "load": LOAD, "callgrind": CALLGRIND,
           "windows": WINDOWS, "corpus": CORPUS, "long": LONG, "long-warm": LONG, "memory": MEMORY,
           "first-seen": FIRST_SEEN}
TITLES = {
    "sized": "Encode, per string of about N tokens (p50/p99 per encode; ×mtok = peer p50 / mtok p50, ×mtok p99 likewise)",
    "cold": "Cold pass: fresh process, fresh load, unseen multilingual text once (×mtok = peer time / mtok time)",
    "cold-lang": "Cold pass per language: fresh process, fresh load, one translation once (×mtok = peer time / mtok time)",
    "worst": "Worst cases (time at the largest size run; t(2n)/t(n) ≈ 2 is linear)",
    "batch": "mtok encode_batch scaling (speedup over 1 thread; machine: a SHA-256 job's, in the same rounds; ids vs one-by-one encode)",
    "load": "Load: fresh process, ms to first ids (construct + one short encode; imports excluded)",
    "callgrind": "callgrind: instructions per encode of one ~512-token string",
    "windows": "Windows of the corpus text (the mixed text, or --text), fresh process per library: unique = each encoded once, "
               "repeated = each once more after all the others (best process; ×mtok = peer p50 / mtok p50)",
    "corpus": "All of the corpus text, fresh process and load: cold pass, second pass, then encode_batch "
              "(second call) on `threads` (best process; ×mtok = peer time / mtok time; RSS: load, then "
              "peak growth over the two passes)",
    "long": "Long single inputs, one encode each, fresh process per thread count (median window of "
            "the best processes; speedup = MB/s over 1 thread)",
    "long-warm": "Long single inputs as in the long part, after 1 MB of other text in the same process",
    "memory": "Memory: RSS growth while encoding unique random words, 1 MB per encode, fresh process",
    "first-seen": "First-seen pre-tokens by UTF-8 length: distinct words of the corpus, one class per text, "
                  "encoded once in a fresh process (best process; ×mtok = peer µs / mtok µs)",
}


def render(part: str, rows) -> str:
    for r in rows:  # "batch" rows have no lib column
        r.setdefault("lib", "mtok")
    return table(rows, COLUMNS[part], f"\n== {TITLES[part]}")
