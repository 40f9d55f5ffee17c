"""A SentencePiece .model equivalent to a Unigram tokenizer.json (XLM-R),
so `sentencepiece` can be benchmarked on the same vocabulary.

Pieces keep the JSON's order, so the .model's ids are the JSON's ids
(XLM-R's fairseq offset is already baked into the JSON). The normalizer is
"nmt_nfkc" with the JSON's precompiled charsmap and XLM-R's flags; the
suites compare its ids with HF's and report mismatches.
"""

import base64
import hashlib
import json
import os

from . import corpus


def _find_precompiled(normalizer):
    if not normalizer:
        return None
    if normalizer.get("type") == "Precompiled":
        return normalizer["precompiled_charsmap"]
    for sub in normalizer.get("normalizers", ()):
        found = _find_precompiled(sub)
        if found:
            return found
    return None


def model_proto_bytes(tokenizer_json: str) -> bytes:
    """Serialized ModelProto built from a Unigram tokenizer.json."""
    from sentencepiece import sentencepiece_model_pb2 as pb

    with open(tokenizer_json, encoding="utf-8") as f:
        data = json.load(f)
    model = data["model"]
    if model.get("type", "Unigram") != "Unigram":
        raise ValueError(f"{tokenizer_json}: not a Unigram model")
    specials = {t["content"]: t["id"] for t in data.get("added_tokens", ()) if t.get("special")}
    unk_id = model.get("unk_id")

    proto = pb.ModelProto()
    Piece = pb.ModelProto.SentencePiece
    for i, (piece, score) in enumerate(model["vocab"]):
        p = proto.pieces.add()
        p.piece, p.score = piece, score
        if i == unk_id:
            p.type = Piece.UNKNOWN
        elif piece in ("<s>", "</s>", "<pad>"):
            p.type = Piece.CONTROL
        elif piece in specials:
            p.type = Piece.USER_DEFINED  # <mask>: matched in text, as HF's added token is
        else:
            p.type = Piece.NORMAL

    ids = {piece: i for i, (piece, _) in enumerate(model["vocab"])}
    ts = proto.trainer_spec
    ts.model_type = pb.TrainerSpec.UNIGRAM
    ts.vocab_size = len(model["vocab"])
    ts.unk_id = unk_id if unk_id is not None else -1
    ts.bos_id = ids.get("<s>", -1)
    ts.eos_id = ids.get("</s>", -1)
    ts.pad_id = ids.get("<pad>", -1)

    ns = proto.normalizer_spec
    ns.name = "nmt_nfkc"
    charsmap = _find_precompiled(data.get("normalizer"))
    if charsmap:
        ns.precompiled_charsmap = base64.b64decode(charsmap)
    # XLM-R's sentencepiece.bpe.model flags (HF renders them as Metaspace
    # with a prepended "▁" and a Replace of runs of spaces).
    ns.add_dummy_prefix = True
    ns.remove_extra_whitespaces = True
    ns.escape_whitespaces = True
    return proto.SerializeToString()


def built_model_path(spec):
    """The .model for `spec` (built from its tokenizer.json), cached."""
    src = str(corpus.file_path(spec.json)) if not os.path.isabs(spec.json) else spec.json
    st = os.stat(src)
    key = hashlib.sha1(f"{src}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:16]
    out = corpus.SCRATCH / "spm" / f"{spec.name}-{key}.model"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f"{out.name}.{os.getpid()}.tmp")
        tmp.write_bytes(model_proto_bytes(src))
        os.replace(tmp, out)
    return out
