"""Engines run a job's pending shards and yield each shard's result as it
finishes. All of them call :func:`mtok.corpus.worker.run_shard`, so their
output is byte-identical; they differ only in where the work runs.

- ``local``: a process pool (``--workers`` processes, one native thread
  each); one worker runs in the calling process.
- ``threads``: one process, the native ``encode_batch`` threads.
- ``dask``: tasks on a Dask distributed cluster.
"""

ENGINES = ("local", "threads", "dask")


def get_engine(name: str):
    """The `run` function of an engine by name."""
    if name == "local":
        from .local import run
    elif name == "threads":
        from .threads import run
    elif name == "dask":
        from .dask_engine import run
    else:
        from ..errors import CorpusError

        raise CorpusError(f"unknown engine {name!r} (choose from {', '.join(ENGINES)})")
    return run
