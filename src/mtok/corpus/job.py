"""A corpus job from start to finish: plan, skip what is done, run the
rest on an engine, write the manifest."""

import glob
import hashlib
import os

from .engines import get_engine
from .errors import CorpusError
from .fsutil import remove_if_exists
from .inputs import expand_inputs
from .manifest import JOB, MANIFEST, build_manifest, claim_job, fingerprint, job_description, write_manifest
from .options import JobOptions
from .plan import plan_shards
from .progress import Progress
from .shards import read_verified_marker, remove_shard
from .worker import JobContext


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def token_dtype(tok) -> str:
    """uint16 when every id fits (a vocabulary of at most 65536), else uint32."""
    return "uint16" if len(tok) <= 65536 else "uint32"


def _eos_id(tok, options) -> int:
    if not options.append_eos:
        return -1
    stops = tok.stop_ids
    if stops:
        return int(stops[0])
    # Built-in OpenAI encodings name their EOS token but list no stop ids.
    eos = tok.token_to_id(tok.eos_token) if tok.eos_token else None
    if eos is None:
        raise CorpusError("--append-eos: this tokenizer has no EOS token (no stop ids and no eos_token)")
    return int(eos)


def _tokenizer_entry(tok, tok_bytes: bytes) -> dict:
    return {"sha256": hashlib.sha256(tok_bytes).hexdigest(), "vocab_size": len(tok),
            "model_type": tok.model_type, "eos_token": tok.eos_token or None}


class _OutDirLock:
    """An exclusive lock on OUTDIR for the driver: one job at a time."""

    def __init__(self, out_dir: str):
        self.path = os.path.join(out_dir, ".lock")
        self.fd = None

    def __enter__(self):
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            import fcntl

            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:
            pass  # no flock on this platform: the caller keeps to one job
        except OSError:
            os.close(self.fd)
            raise CorpusError(f"{os.path.dirname(self.path)}: another mtok job is writing here") from None
        return self

    def __exit__(self, *exc):
        os.close(self.fd)


def _clear(out_dir: str) -> None:
    for path in [os.path.join(out_dir, MANIFEST), os.path.join(out_dir, JOB)] + \
            glob.glob(os.path.join(out_dir, "shard-*")):
        remove_if_exists(path)


def _report(progress: Progress, result: dict) -> None:
    for item in result["error_items"]:
        progress.write(f"mtok: skipped malformed record: {item}")
    hidden = result["errors"] - len(result["error_items"])
    if hidden > 0:
        progress.write(f"mtok: ... and {hidden} more malformed records in {result['name']}")


def _split_done(out_dir: str, shards: list, job_fingerprint: str, on_error: str):
    """({index: marker} of verified finished shards, shards to run). Clears
    the manifest, temp files and leftovers of the shards to run."""
    done, pending = {}, []
    for shard in shards:
        marker = read_verified_marker(out_dir, shard.name, job_fingerprint)
        # A shard kept under --on-error skip is redone under fail, to stop at its first error.
        if marker is not None and not (on_error == "fail" and marker["errors"]):
            done[shard.index] = marker
        else:
            pending.append(shard)
    if pending:
        # The dataset is incomplete until every shard is back.
        for path in [os.path.join(out_dir, MANIFEST)] + glob.glob(os.path.join(out_dir, "shard-*.tmp.*")):
            remove_if_exists(path)
        for shard in pending:
            remove_shard(out_dir, shard.name)
    return done, pending


def tokenize_corpus(inputs, tok, out_dir, options: JobOptions = JobOptions(), *, engine: str = "local",
                    workers: int = None, scheduler: str = None, overwrite: bool = False,
                    show_progress: bool = True) -> dict:
    """Tokenizes `inputs` (files or folders) with `tok` into token shards
    in `out_dir` and returns a summary dict. Shards finished and verified
    by an earlier run of the same job are kept. Raises CorpusError (or
    RecordError for a malformed record with ``on_error="fail"``)."""
    workers = workers or default_workers()
    run = get_engine(engine)
    tok_bytes = tok.to_bytes()
    dtype = token_dtype(tok)
    eos_id = _eos_id(tok, options)
    sources, shards = plan_shards(expand_inputs(inputs, options.input_format), options)
    description = job_description(_tokenizer_entry(tok, tok_bytes), sources, options, dtype, len(shards))
    description["fingerprint"] = fingerprint(description)
    os.makedirs(out_dir, exist_ok=True)
    with _OutDirLock(out_dir):
        if overwrite:
            _clear(out_dir)
        claim_job(out_dir, description)
        done, pending = _split_done(out_dir, shards, description["fingerprint"], options.on_error)
        ctx = JobContext(os.path.abspath(out_dir), options, dtype,
                         description["fingerprint"], eos_id)
        total = sum(s.nbytes for s in shards)
        resumed = sum(s.nbytes for s in shards if s.index in done)
        progress = Progress(total, enabled=show_progress and bool(pending), initial=resumed)
        try:
            for result in run(pending, ctx, tok, workers=workers, progress=progress, scheduler=scheduler):
                done[result["index"]] = result
                _report(progress, result)
        finally:
            elapsed = progress.close()
        results = [done[s.index] for s in shards]
        manifest = build_manifest(description, results)
        write_manifest(out_dir, manifest)
    return {
        "out_dir": out_dir,
        "documents": manifest["num_documents"],
        "tokens": manifest["num_tokens"],
        "input_bytes": manifest["input_bytes"],
        "dtype": dtype,
        "shards": len(shards),
        "shards_resumed": len(shards) - len(pending),
        "malformed_records": manifest["malformed_records"]["count"],
        "empty_records": manifest["empty_records_skipped"],
        "seconds": elapsed,
        "bytes_this_run": progress.bytes,
        "tokens_this_run": progress.tokens,
    }


def summary_line(s: dict) -> str:
    """One line for the end of a run."""
    secs = max(s["seconds"], 1e-9)
    parts = [f"{s['documents']:,} documents, {s['tokens']:,} tokens ({s['dtype']}) "
             f"from {s['input_bytes'] / 1e6:,.1f} MB into {s['shards']} shards in {s['out_dir']}"]
    if s["shards"] > s["shards_resumed"]:
        parts.append(f"{s['bytes_this_run'] / 1e6 / secs:,.1f} MB/s, "
                     f"{s['tokens_this_run'] / secs:,.0f} tokens/s over {s['seconds']:.1f} s")
    if s["shards_resumed"]:
        parts.append(f"{s['shards_resumed']} shards were already done")
    if s["malformed_records"]:
        parts.append(f"{s['malformed_records']} malformed records skipped")
    if s["empty_records"]:
        parts.append(f"{s['empty_records']} empty records skipped")
    return "; ".join(parts)
