"""SentencePiece .model -> spec, with SentencePiece's own semantics.

The spec uses mtok's SentencePiece normalizer, model and decoder (see
docs/format.md): SentencePiece normalizes the whole text in one pass, keeps
user-defined symbols verbatim, never matches control pieces in text, skips
unused pieces and scores in float, which HF's components do not reproduce.

By default the ids are those of ``SentencePieceProcessor.encode(text)``:
no BOS/EOS. ``add_bos``/``add_eos`` make ``encode(text)`` (with
add_special_tokens=True) equal ``encode(text, add_bos=True, add_eos=True)``.
"""

from google.protobuf.message import DecodeError

from ..errors import FormatError
from .sentencepiece_proto import MODEL_TYPES, PIECE_TYPES, model_proto_class

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = (PIECE_TYPES[k] for k in (
    "NORMAL", "UNKNOWN", "CONTROL", "USER_DEFINED", "UNUSED", "BYTE"))


def read_model_proto(path: str):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FormatError(f"{path}: {e.strerror}") from None
    proto = model_proto_class()()
    try:
        proto.ParseFromString(data)
    except DecodeError as e:
        raise FormatError(f"{path}: not a SentencePiece model ({e})") from None
    return proto


def _check(path, proto, types):
    if not proto.pieces:
        raise FormatError(f"{path}: the model has no pieces")
    if types.count(UNKNOWN) != 1:
        raise FormatError(f"{path}: a SentencePiece model needs exactly one UNKNOWN piece")
    seen = set()
    for p in proto.pieces:
        if not p.piece:
            raise FormatError(f"{path}: empty piece")
        if p.piece in seen:
            raise FormatError(f"{path}: piece {p.piece!r} is defined twice")
        seen.add(p.piece)
    if proto.denormalizer_spec.precompiled_charsmap:
        raise FormatError(f"{path}: denormalizer rules are not supported by mtok")


def _template(proto, add_bos, add_eos, path):
    """HF-style TemplateProcessing for the requested BOS/EOS, or None."""
    if not (add_bos or add_eos):
        return None
    specials, single, pair = {}, [], []
    for name, wanted, tid in (("bos", add_bos, proto.trainer_spec.bos_id),
                              ("eos", add_eos, proto.trainer_spec.eos_id)):
        if wanted and not 0 <= tid < len(proto.pieces):
            raise FormatError(f"{path}: add_{name} is set but the model has no {name} piece")
        specials[name] = {"id": name, "ids": [tid], "tokens": [proto.pieces[tid].piece]}
    for seq, type_id, out in (("A", 0, single), ("A", 0, pair), ("B", 1, pair)):
        if add_bos:
            out.append({"SpecialToken": {"id": "bos", "type_id": type_id}})
        out.append({"Sequence": {"id": seq, "type_id": type_id}})
        if add_eos:
            out.append({"SpecialToken": {"id": "eos", "type_id": type_id}})
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": specials}


def load_sentencepiece(path: str, *, add_bos: bool = False, add_eos: bool = False) -> dict:
    proto = read_model_proto(path)
    types = [p.type for p in proto.pieces]
    _check(path, proto, types)
    trainer, norm = proto.trainer_spec, proto.normalizer_spec
    kind = {MODEL_TYPES["UNIGRAM"]: "Unigram", MODEL_TYPES["BPE"]: "SentencePieceBPE"}.get(trainer.model_type)
    if kind is None:
        raise FormatError(f"{path}: SentencePiece model type {trainer.model_type} (WORD/CHAR) "
                          "is not supported by mtok")
    pieces = [p.piece for p in proto.pieces]
    unk_id = types.index(UNKNOWN)
    normalizer = {
        "type": "SentencePiece",
        "precompiled_charsmap": bytes(norm.precompiled_charsmap),
        "add_dummy_prefix": norm.add_dummy_prefix,
        "remove_extra_whitespaces": norm.remove_extra_whitespaces,
        "escape_whitespaces": norm.escape_whitespaces,
        "treat_whitespace_as_suffix": trainer.treat_whitespace_as_suffix,
        "user_defined_symbols": [p for p, t in zip(pieces, types) if t == USER_DEFINED],
    }
    model = {
        "type": kind,
        "vocab": [[p.piece, p.score] for p in proto.pieces],
        "unk_id": unk_id,
        "byte_fallback": trainer.byte_fallback,
        "mtok_sentencepiece": True,
        "mtok_piece_types": types,
    }
    decoder = {
        "type": "SentencePiece",
        "add_dummy_prefix": norm.add_dummy_prefix,
        "remove_extra_whitespaces": norm.remove_extra_whitespaces,
        "byte_fallback": trainer.byte_fallback,
        "unk_piece": pieces[unk_id],
        "unk_surface": trainer.unk_surface,
        "control": [p for p, t in zip(pieces, types) if t == CONTROL],
    }
    extra = {}
    if 0 <= trainer.eos_id < len(pieces):
        extra["eos_token"] = pieces[trainer.eos_id]
        extra["stop_ids"] = [trainer.eos_id]
    if 0 <= trainer.bos_id < len(pieces):
        extra["bos_token"] = pieces[trainer.bos_id]
    return {
        "normalizer": normalizer,
        "pre_tokenizer": None,
        "model": model,
        "decoder": decoder,
        "post_processor": _template(proto, add_bos, add_eos, path),
        "added_tokens": [],
        "mtok": extra,
    }
