"""The Dask engine: shards as tasks on a Dask distributed cluster.

Workers must see the input files and OUTDIR at the same paths as the
client (a shared filesystem). The tokenizer travels once per worker as its
.mtok bytes.
"""

import logging
import uuid

from ..errors import CorpusError, RecordError
from ..worker import run_shard, tokenizer_from_bytes


def _run_task(shard, ctx, tok_bytes) -> dict:
    try:
        return run_shard(shard, ctx, tokenizer_from_bytes(tok_bytes), num_threads=1)
    except RecordError as e:
        # Returned, not raised: the client reports it once, without a
        # worker-side "Compute Failed" traceback in the cluster's logs.
        return {"record_error": (e.where, e.message)}


def _client(scheduler, workers):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise CorpusError("--engine dask needs Dask distributed (pip install 'dask[distributed]')") from None
    if scheduler:
        try:
            return Client(scheduler, timeout="30s"), None
        except (OSError, TimeoutError) as e:
            raise CorpusError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    # No scheduler given: a private cluster on this machine, whose warnings
    # about tasks cancelled after an error would only repeat our message.
    cluster = LocalCluster(n_workers=max(workers, 1), threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster), cluster


def run(shards, ctx, tok, *, workers: int, progress, scheduler=None, **_):
    """Yields shard results as the cluster finishes them. Without
    `scheduler`, starts a LocalCluster of `workers` processes."""
    from distributed import as_completed

    client, cluster = _client(scheduler, workers)
    futures = []
    try:
        tok_ref = client.scatter(tok.to_bytes(), broadcast=True, hash=False)
        for shard in shards:
            futures.append(client.submit(_run_task, shard, ctx, tok_ref, pure=False,
                                         key=f"mtok-{shard.name}-{uuid.uuid4().hex}"))
        for fut in as_completed(futures):
            result = fut.result()
            if "record_error" in result:
                raise RecordError(*result["record_error"])
            progress.advance(result["input_bytes"], result["tokens"])
            yield result
    finally:
        client.cancel(futures)
        client.close()
        if cluster is not None:
            cluster.close()
