"""The threads engine: one process, the native encode_batch threads."""

from ..worker import run_shard


def run(shards, ctx, tok, *, workers: int, progress, **_):
    """Yields shard results in order; each batch of a shard is encoded on
    `workers` native threads with the GIL released once."""
    for shard in shards:
        yield run_shard(shard, ctx, tok, num_threads=max(workers, 1), progress=progress.advance)
