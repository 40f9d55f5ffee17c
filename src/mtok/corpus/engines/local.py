"""The local engine: shards on a pool of processes."""

import concurrent.futures as cf
import multiprocessing
import os
import tempfile

from ..worker import run_shard

_TOKENIZER = None


def _init_worker(mtok_path: str) -> None:
    from ...tokenizer import Tokenizer

    global _TOKENIZER
    _TOKENIZER = Tokenizer.from_file(mtok_path)


def _run_in_worker(shard, ctx) -> dict:
    return run_shard(shard, ctx, _TOKENIZER, num_threads=1)


def _save_tokenizer(tok) -> str:
    # Workers map the .mtok from a file. Passing megabytes of bytes as an
    # initializer argument would go through the spawn pipe, where CPython
    # blocks forever if a child dies before reading it (say, a broken import).
    fd, path = tempfile.mkstemp(prefix="mtok-tokenize-corpus-", suffix=".mtok")
    with os.fdopen(fd, "wb") as f:
        f.write(tok.to_bytes())
    return path


def run(shards, ctx, tok, *, workers: int, progress, **_):
    """Yields shard results as they finish. One worker runs inline (no
    pool start-up and per-batch progress); more use spawned processes, each
    loading the tokenizer once from a temporary .mtok file."""
    if workers <= 1 or len(shards) <= 1:
        for shard in shards:
            yield run_shard(shard, ctx, tok, num_threads=max(workers, 1), progress=progress.advance)
        return
    mtok_path = _save_tokenizer(tok)
    # spawn, not fork: the parent may hold native threads and tqdm's monitor.
    mp = multiprocessing.get_context("spawn")
    pool = cf.ProcessPoolExecutor(max_workers=min(workers, len(shards)), mp_context=mp,
                                  initializer=_init_worker, initargs=(mtok_path,))
    try:
        futures = [pool.submit(_run_in_worker, shard, ctx) for shard in shards]
        for fut in cf.as_completed(futures):
            result = fut.result()
            progress.advance(result["input_bytes"], result["tokens"])
            yield result
    except cf.process.BrokenProcessPool as e:
        from ..errors import CorpusError

        raise CorpusError(f"a worker process died ({e}); see its error above") from None
    finally:
        # On an error (or Ctrl-C) drop queued shards; running ones finish or
        # die without a marker, so a rerun redoes them.
        pool.shutdown(wait=True, cancel_futures=True)
        os.unlink(mtok_path)
