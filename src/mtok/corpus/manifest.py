"""The job fingerprint, job.json, and manifest.json.

The manifest holds nothing that depends on the engine, the worker count,
the clock or the host, so the same job gives a byte-identical manifest
however it was run.
"""

import hashlib
import json
import os

from .errors import CorpusError
from .fsutil import write_json_atomic

FORMAT = "mtok-corpus"
VERSION = 1
MANIFEST = "manifest.json"
JOB = "job.json"


def job_description(tokenizer: dict, sources: list, options, dtype: str, num_shards: int) -> dict:
    """Everything that decides the output bytes."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "tokenizer": tokenizer,
        "dtype": dtype,
        "options": options.identity(),
        "sources": [s.describe() for s in sources],
        "num_shards": num_shards,
    }


def fingerprint(description: dict) -> str:
    """sha256 of the canonical JSON of a job description."""
    text = json.dumps(description, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _differences(old: dict, new: dict) -> list:
    keys = sorted(set(old) | set(new))
    return [k for k in keys if k != "fingerprint" and old.get(k) != new.get(k)]


def claim_job(out_dir: str, description: dict) -> None:
    """Records the job in OUTDIR/job.json, refusing a folder that holds
    another job's output (the caller offers --overwrite)."""
    path = os.path.join(out_dir, JOB)
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError):
            old = {}
        if old.get("fingerprint") == description["fingerprint"]:
            return
        changed = ", ".join(_differences(old, description)) or "job.json unreadable"
        raise CorpusError(f"{out_dir} holds the output of a different job (differs in: {changed}); "
                          "use another folder or --overwrite")
    write_json_atomic(path, description)


def build_manifest(description: dict, results: list) -> dict:
    """The manifest of a finished job from its shards' markers (in order)."""
    shards, errors = [], []
    totals = {"documents": 0, "tokens": 0, "input_bytes": 0, "empty_records": 0, "errors": 0}
    for r in results:
        shards.append({"name": r["name"], "documents": r["documents"], "tokens": r["tokens"],
                       "input_bytes": r["input_bytes"], "bin": r["bin"], "idx": r["idx"]})
        for key in totals:
            totals[key] += r[key]
        errors += r["error_items"]
    manifest = {k: v for k, v in description.items() if k not in ("num_shards",)}
    manifest.update({
        "num_documents": totals["documents"],
        "num_tokens": totals["tokens"],
        "input_bytes": totals["input_bytes"],
        "empty_records_skipped": totals["empty_records"],
        "malformed_records": {"count": totals["errors"], "first": errors[:1000]},
        "shards": shards,
    })
    return manifest


def write_manifest(out_dir: str, manifest: dict) -> None:
    """Writes manifest.json atomically: the dataset exists once it does."""
    write_json_atomic(os.path.join(out_dir, MANIFEST), manifest)


def load_manifest(out_dir: str) -> dict:
    """Reads and checks the header of OUTDIR/manifest.json."""
    path = os.path.join(out_dir, MANIFEST)
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
    except FileNotFoundError:
        raise CorpusError(f"{out_dir}: no {MANIFEST} (not a finished mtok corpus; "
                          "rerun the job to complete it)") from None
    except (OSError, ValueError) as e:
        raise CorpusError(f"{path}: unreadable: {e}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise CorpusError(f"{path}: not an mtok corpus manifest")
    if manifest.get("version") != VERSION:
        raise CorpusError(f"{path}: format version {manifest.get('version')} is not supported "
                          f"(this mtok reads version {VERSION})")
    return manifest
