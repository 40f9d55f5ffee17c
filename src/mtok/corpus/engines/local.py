"""The local engine: shards on a pool of processes."""

import concurrent.futures as cf
import multiprocessing

from ..worker import run_shard, tokenizer_from_bytes

_TOKENIZER = None


def _init_worker(tok_bytes: bytes) -> None:
    global _TOKENIZER
    _TOKENIZER = tokenizer_from_bytes(tok_bytes)


def _run_in_worker(shard, ctx) -> dict:
    return run_shard(shard, ctx, _TOKENIZER, num_threads=1)


def run(shards, ctx, tok, *, workers: int, progress, **_):
    """Yields shard results as they finish. One worker runs inline (no
    pool start-up and per-batch progress); more use spawned processes, each
    loading the tokenizer once from its .mtok bytes."""
    if workers <= 1 or len(shards) <= 1:
        for shard in shards:
            yield run_shard(shard, ctx, tok, num_threads=max(workers, 1), progress=progress.advance)
        return
    # spawn, not fork: the parent may hold native threads and tqdm's monitor.
    mp = multiprocessing.get_context("spawn")
    pool = cf.ProcessPoolExecutor(max_workers=min(workers, len(shards)), mp_context=mp,
                                  initializer=_init_worker, initargs=(tok.to_bytes(),))
    try:
        futures = [pool.submit(_run_in_worker, shard, ctx) for shard in shards]
        for fut in cf.as_completed(futures):
            result = fut.result()
            progress.advance(result["input_bytes"], result["tokens"])
            yield result
    finally:
        # On an error (or Ctrl-C) drop queued shards; running ones finish or
        # die without a marker, so a rerun redoes them.
        pool.shutdown(wait=True, cancel_futures=True)
