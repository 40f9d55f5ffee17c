"""First-seen pre-tokens by length: where a cache-missing word's time goes.
Distinct pre-tokens of the mixed corpus text (split by the reference
tokenizer's own pre-tokenizer), grouped by their UTF-8 length, each group
joined by line breaks into one text. A fresh process per library loads the
tokenizer and encodes each group's text once: nearly every pre-token is
then a cache miss, so µs per piece is the cost of a first-seen word of that
length, every library on the same pieces. A process's first group also
pays for the memory its caches touch first; the groups run shortest first."""

import time

from .timing import gc_paused
from .traffic import WARM_TEXT, fresh_rounds

# (label, shortest, longest) in UTF-8 bytes.
CLASSES = (("2-7", 2, 7), ("8-15", 8, 15), ("16-47", 16, 47), ("48+", 48, 1 << 20))
PIECES = 4000  # per class
QUICK_PIECES = 300


def class_texts(spec, pieces=PIECES) -> dict:
    """{label: text} of up to `pieces` distinct pre-tokens per class, joined by "\\n"."""
    import tokenizers

    from .texts import mixed_text

    pre = tokenizers.Tokenizer.from_file(spec.json).pre_tokenizer
    if pre is None:
        raise ValueError(f"{spec.name}: the tokenizer has no pre-tokenizer to find words with")
    text = mixed_text()
    groups = {label: [] for label, _, _ in CLASSES}
    seen = set()
    for _, (b, e) in pre.pre_tokenize_str(text):
        piece = text[b:e]
        if piece in seen or not piece.strip() or "\n" in piece or "\r" in piece:
            continue
        seen.add(piece)
        n = len(piece.encode("utf-8"))
        for label, lo, hi in CLASSES:
            if lo <= n <= hi and len(groups[label]) < pieces:
                groups[label].append(piece)
    return {label: "\n".join(ps) for label, ps in groups.items() if ps}


def first_seen_pass(peer, spec, texts) -> dict:
    """Worker side: each class's text encoded once, in class order."""
    from .peers import ids_digest

    fn = peer.load(spec)
    fn(WARM_TEXT)
    seconds, digests = {}, {}
    with gc_paused():
        for label, text in texts.items():
            t = time.perf_counter()
            ids = fn(text)
            seconds[label] = time.perf_counter() - t
            digests[label] = ids_digest(ids)
    return {"seconds": seconds, "digests": digests}


def run(spec, selected, *, pieces=PIECES, repeats, log=print) -> list:
    from .sized import match_of
    from .traffic import _reference

    texts = class_texts(spec, pieces)
    counts = {label: text.count("\n") + 1 for label, text in texts.items()}
    log(f"  {spec.name} first-seen pre-tokens: " + ", ".join(f"{counts[k]} of {k} B" for k in texts))
    ref = dict(zip(texts, _reference(spec, list(texts.values()))))
    results = fresh_rounds(spec, selected, {"job": "first_seen", "texts": texts}, repeats, log=log)
    rows = []
    for name, runs in results.items():
        for label in texts:
            row = {"tokenizer": spec.name, "lib": name, "class": label, "pieces": counts[label]}
            if isinstance(runs, str):
                row["error"] = runs
            else:
                row["us_per_piece"] = min(r["seconds"][label] for r in runs) / counts[label] * 1e6
                row["match"] = match_of([runs[0]["digests"][label]], [ref[label]])
                if any(r["digests"][label] != runs[0]["digests"][label] for r in runs):
                    row["match"] = "processes differ"
            rows.append(row)
    mtok = {r["class"]: r["us_per_piece"] for r in rows if r["lib"] == "mtok" and "us_per_piece" in r}
    for r in rows:
        if "us_per_piece" in r and r["class"] in mtok:
            r["ratio"] = r["us_per_piece"] / mtok[r["class"]]
    return rows
