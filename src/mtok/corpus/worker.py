"""Tokenizing one shard: the unit of work every engine runs.

It depends only on the shard, the job context and the tokenizer, so a
shard's bytes are the same whichever engine, process or machine runs it.
"""

import dataclasses
import hashlib

from .documents import RecordLog, iter_documents
from .shards import ShardWriter, write_marker


@dataclasses.dataclass(frozen=True)
class JobContext:
    """What a worker needs besides the shard and the tokenizer (pickled to
    process-pool and Dask workers)."""

    out_dir: str
    options: object
    dtype: str
    fingerprint: str
    eos_id: int = -1  # appended to each document when >= 0


_TOKENIZERS = {}


def tokenizer_from_bytes(data: bytes):
    """The tokenizer of these .mtok bytes, loaded once per process."""
    from ..tokenizer import Tokenizer

    key = hashlib.sha256(data).digest()
    tok = _TOKENIZERS.get(key)
    if tok is None:
        _TOKENIZERS.clear()
        tok = _TOKENIZERS[key] = Tokenizer.from_bytes(data)
    return tok


def _whole_documents(tok):
    """`tok`, or a shallow copy of it with truncation and padding off (as a
    tokenizer.json may set them): a shard holds whole documents."""
    if tok.truncation is None and tok.padding is None:
        return tok
    plain = object.__new__(type(tok))
    plain.__dict__.update(tok.__dict__)  # settings are immutable: sharing them is safe
    plain.no_truncation()
    plain.no_padding()
    return plain


def _encode(tok, ctx, texts, threads):
    add = ctx.options.add_special_tokens
    # One text encodes without thread start-up; the ids are the same.
    if len(texts) == 1:
        batch = [tok.encode(texts[0], add_special_tokens=add)]
    else:
        batch = tok.encode_batch(texts, add_special_tokens=add, num_threads=threads)
    if ctx.eos_id >= 0:
        for ids in batch:
            ids.append(ctx.eos_id)
    return batch


def run_shard(shard, ctx: JobContext, tok, num_threads: int = 1, progress=None) -> dict:
    """Tokenizes `shard`, commits its files and marker, and returns the
    marker's content. `progress(nbytes, ntokens)` is called per batch."""
    tok = _whole_documents(tok)
    log = RecordLog(ctx.options.on_error)
    writer = ShardWriter(ctx.out_dir, shard.name, ctx.dtype)
    reported = 0  # input bytes already passed to `progress`

    def flush(texts, size):
        """Encodes and writes one batch."""
        nonlocal reported
        before = writer.tokens
        writer.add(_encode(tok, ctx, texts, num_threads))
        if progress is not None:
            # Text length stands in for input bytes until the shard ends.
            step = min(size, shard.nbytes - reported)
            reported += step
            progress(step, writer.tokens - before)

    try:
        texts, size = [], 0
        for text in iter_documents(shard, ctx.options, log):
            texts.append(text)
            size += len(text)
            if size >= ctx.options.batch_bytes:
                flush(texts, size)
                texts, size = [], 0
        if texts:
            flush(texts, size)
        files = writer.commit()
    except BaseException:
        writer.abort()
        raise
    if progress is not None:
        progress(shard.nbytes - reported, 0)
    result = {
        "fingerprint": ctx.fingerprint,
        "name": shard.name,
        "index": shard.index,
        "documents": writer.documents,
        "tokens": writer.tokens,
        "input_bytes": shard.nbytes,
        "input_records": shard.records,
        "empty_records": log.empty,
        "errors": log.errors,
        "error_items": log.items,
        **files,
    }
    write_marker(ctx.out_dir, shard.name, result)
    return result
