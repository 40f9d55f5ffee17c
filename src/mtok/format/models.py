"""Writes the model section from an HF-style model spec."""

from ..errors import FormatError
from .binary import ByteWriter
from .codes import MAX_TOKEN_ID, Model


def sorted_vocab(vocab: dict, where: str):
    """Vocab entries sorted by token (code point order = UTF-8 byte order),
    as the seed's binary search expects; checks ids."""
    items = sorted(vocab.items())
    seen = set()
    for token, tid in items:
        if not isinstance(tid, int) or tid < 0 or tid >= MAX_TOKEN_ID:
            raise FormatError(f"{where}: token {token!r} has invalid id {tid!r}")
        if tid in seen:
            raise FormatError(f"{where}: id {tid} is used by two tokens")
        seen.add(tid)
    return items


def _merge_pairs(model: dict):
    """Yields (left, right) strings of the HF merges list."""
    for i, m in enumerate(model.get("merges", [])):
        if isinstance(m, str):
            parts = m.split(" ")
            if len(parts) != 2:
                raise FormatError(f"BPE merge {i} ({m!r}) is not two tokens separated by a space")
            yield parts[0], parts[1]
        elif isinstance(m, (list, tuple)) and len(m) == 2:
            yield m[0], m[1]
        else:
            raise FormatError(f"BPE merge {i} ({m!r}) is neither 'a b' nor ['a', 'b']")


def _bpe_merges(model: dict, vocab: dict):
    """HF's merge map: (left id, right id) -> (rank, merged id); a repeated
    pair keeps its last rank, as HF's map does."""
    prefix_len = len(model.get("continuing_subword_prefix") or "")
    table = {}
    for rank, (a, b) in enumerate(_merge_pairs(model)):
        try:
            key = (vocab[a], vocab[b])
        except KeyError as e:
            raise FormatError(f"BPE merge {rank} ({a!r} {b!r}): token {e.args[0]!r} is not in the vocab") from None
        merged = a + b[prefix_len:]
        if merged not in vocab:
            raise FormatError(f"BPE merge {rank} ({a!r} {b!r}): {merged!r} is not in the vocab")
        table[key] = (rank, vocab[merged])
    return table


def _bpe(w: ByteWriter, model: dict) -> None:
    vocab = model.get("vocab")
    if not isinstance(vocab, dict):
        raise FormatError("BPE model: vocab must be an object of token -> id")
    if model.get("dropout") not in (None, 0, 0.0):
        raise FormatError("BPE model: dropout is random; mtok only runs deterministic BPE (dropout null)")
    rank_merges = bool(model.get("mtok_rank_merges"))
    merges = {} if rank_merges else _bpe_merges(model, vocab)
    unk = model.get("unk_token")
    if unk is not None and unk not in vocab:
        raise FormatError(f"BPE model: unk_token {unk!r} is not in the vocab")
    prefix = model.get("continuing_subword_prefix") or ""
    suffix = model.get("end_of_word_suffix") or ""
    ignore_merges = bool(model.get("ignore_merges", False))
    fuse_unk = bool(model.get("fuse_unk", False))
    full = ignore_merges or unk is not None or prefix or suffix or rank_merges or fuse_unk
    items = sorted_vocab(vocab, "BPE vocab")

    w.u8(Model.BPE_FULL if full else Model.BPE)
    w.u32(len(items))
    w.flag(model.get("byte_fallback", False))
    w.u8(0)  # byte_level: mtok pipelines map bytes in the ByteLevel pre-tokenizer
    w.u32(len(merges))
    if full:
        flags = 0
        if ignore_merges:
            flags |= Model.BPE_IGNORE_MERGES
        if fuse_unk:
            flags |= Model.BPE_FUSE_UNK
        if rank_merges:
            flags |= Model.BPE_RANK_MERGES
        if unk is not None:
            flags |= Model.BPE_HAS_UNK
        w.u8(flags)
        w.u32(vocab[unk] if unk is not None else 0)
        w.str(prefix, "continuing_subword_prefix")
        w.str(suffix, "end_of_word_suffix")
    for token, tid in items:
        w.str(token, "BPE token")
        w.u32(tid)
    # Sorted by (left << 32 | right), as the seed specifies.
    for (left, right), (rank, merged) in sorted(merges.items()):
        w.u32(left)
        w.u32(right)
        w.u32(rank)
        if full:
            w.u32(merged)


def _scored_pieces(model: dict, where: str):
    """[(token, id, score)] of a Unigram-style vocab list [[token, score], ...]."""
    vocab = model.get("vocab")
    if not isinstance(vocab, list) or not vocab:
        raise FormatError(f"{where}: vocab must be a non-empty list of [token, score]")
    if len(vocab) > MAX_TOKEN_ID:
        raise FormatError(f"{where}: {len(vocab)} tokens is beyond the limit of 2^24")
    out = []
    for i, entry in enumerate(vocab):
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], str)
                and isinstance(entry[1], (int, float))):
            raise FormatError(f"{where}: vocab entry {i} ({entry!r}) is not [token, score]")
        if not entry[0]:
            raise FormatError(f"{where}: vocab entry {i} is an empty token")
        out.append((entry[0], i, float(entry[1])))
    return out


def _piece_model(w: ByteWriter, model: dict, code: int, where: str) -> None:
    """Unigram (MNN code 2 or mtok code 66) and SentencePiece BPE (code 67)."""
    pieces = _scored_pieces(model, where)
    unk = model.get("unk_id")
    if unk is None or not isinstance(unk, int) or not 0 <= unk < len(pieces):
        raise FormatError(f"{where}: unk_id {unk!r} is missing or not in the vocab "
                          "(HF fails on the first unknown character without one)")
    spm = bool(model.get("mtok_sentencepiece"))
    types = model.get("mtok_piece_types")
    full = code != Model.UNIGRAM
    w.u8(code)
    w.u32(len(pieces))
    w.u32(unk)
    if full:
        flags = Model.PIECE_HAS_UNK
        if model.get("byte_fallback"):
            flags |= Model.PIECE_BYTE_FALLBACK
        if spm:
            flags |= Model.PIECE_SENTENCEPIECE
        w.u8(flags)
    else:
        w.flag(model.get("byte_fallback", False))
    # Unigram records by token bytes (the reader builds its trie in that
    # order); SentencePiece BPE's in id order, as the pieces come (nothing
    # reads them sorted, and sorting was a fifth of a first load).
    for token, tid, score in (pieces if code == Model.SENTENCEPIECE_BPE else sorted(pieces)):
        w.str(token, "vocab token")
        w.u32(tid)
        w.f64(score)
        if full:
            w.u8(types[tid] if types else 1)


def _unigram(w: ByteWriter, model: dict) -> None:
    # HF semantics fit MNN's code 2; SentencePiece's need the typed code 66.
    code = Model.UNIGRAM_FULL if model.get("mtok_sentencepiece") else Model.UNIGRAM
    _piece_model(w, model, code, "Unigram model")


def _sentencepiece_bpe(w: ByteWriter, model: dict) -> None:
    _piece_model(w, model, Model.SENTENCEPIECE_BPE, "SentencePiece BPE model")


def _wordpiece(w: ByteWriter, model: dict) -> None:
    vocab = model.get("vocab")
    if not isinstance(vocab, dict):
        raise FormatError("WordPiece model: vocab must be an object of token -> id")
    unk = model.get("unk_token", "[UNK]")
    if unk not in vocab:
        raise FormatError(f"WordPiece model: unk_token {unk!r} is not in the vocab")
    items = sorted_vocab(vocab, "WordPiece vocab")
    w.u8(Model.WORDPIECE)
    w.u32(len(items))
    w.str(unk, "unk_token")
    w.str(model.get("continuing_subword_prefix", "##"), "continuing_subword_prefix")
    w.u32(int(model.get("max_input_chars_per_word", 100)))
    for token, tid in items:
        w.str(token, "WordPiece token")
        w.u32(tid)


# model type -> writer(w, model spec)
WRITERS = {
    "BPE": _bpe,
    "Unigram": _unigram,
    "WordPiece": _wordpiece,
    "SentencePieceBPE": _sentencepiece_bpe,  # mtok's own: a .model file's BPE
}


def infer_model_type(model: dict) -> str:
    """Old tokenizer.json files have no "type" under "model"."""
    if "type" in model:
        return model["type"]
    vocab = model.get("vocab")
    if isinstance(vocab, list):
        return "Unigram"
    if "merges" in model:
        return "BPE"
    if "continuing_subword_prefix" in model or "max_input_chars_per_word" in model:
        return "WordPiece"
    if isinstance(vocab, dict):
        return "WordLevel"
    raise FormatError("model: no \"type\" and no vocab to infer it from")


def write_model(w: ByteWriter, model: dict) -> None:
    """A model spec's section. (A section the native converter wrote,
    spec["model"]["mtok_section"], is used as it is by writer.py and never
    comes here.)"""
    kind = infer_model_type(model)
    writer = WRITERS.get(kind)
    if writer is None:
        raise FormatError(f"model type {kind!r} is not supported by mtok")
    writer(w, model)
