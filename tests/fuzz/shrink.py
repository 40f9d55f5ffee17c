"""Small versions of real tokenizer files, as fuzz seeds: the same
structure (normalizers, pre-tokenizers, decoders, added tokens) with a few
hundred vocab entries, so each fuzz input converts in milliseconds."""

import json


def shrink_tokenizer_json(spec: dict, keep: int = 300) -> dict:
    """tokenizer.json dict with only ids < keep (and the merges among them)."""
    spec = json.loads(json.dumps(spec))
    spec["added_tokens"] = (spec.get("added_tokens") or [])[:40]
    model = spec["model"]
    vocab = model.get("vocab")
    if isinstance(vocab, dict):
        names = {t for t, i in vocab.items() if i < keep}
        unk = model.get("unk_token")
        if unk in vocab:
            names.add(unk)
        model["vocab"] = {t: i for t, i in vocab.items() if t in names}
        merges = []
        for m in model.get("merges") or []:
            a, b = m.split(" ", 1) if isinstance(m, str) else m
            if a in names and b in names and a + b in names:
                merges.append(m)
        if "merges" in model:
            model["merges"] = merges
    elif isinstance(vocab, list):  # Unigram: [[piece, score], ...]
        unk_id = model.get("unk_id") or 0
        model["vocab"] = vocab[:max(keep, unk_id + 1)]
    return spec


def shrink_tiktoken(raw: bytes, keep: int = 300) -> bytes:
    return b"\n".join(raw.splitlines()[:keep]) + b"\n"


def shrink_sentencepiece(raw: bytes, keep: int = 300) -> bytes:
    from sentencepiece import sentencepiece_model_pb2 as pb

    m = pb.ModelProto()
    m.ParseFromString(raw)
    del m.pieces[keep:]
    return m.SerializeToString()
