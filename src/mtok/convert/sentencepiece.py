"""SentencePiece .model -> spec, with SentencePiece's own semantics.

The spec uses mtok's SentencePiece normalizer, model and decoder (see
docs/format.md): SentencePiece normalizes the whole text in one pass, keeps
user-defined symbols verbatim, never matches control pieces in text, skips
unused pieces and scores in float, which HF's components do not reproduce.

By default the ids are those of ``SentencePieceProcessor.encode(text)``:
no BOS/EOS. ``add_bos``/``add_eos`` make ``encode(text)`` (with
add_special_tokens=True) equal ``encode(text, add_bos=True, add_eos=True)``.
"""

from ..errors import FormatError


def read_model_proto(path: str):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FormatError(f"{path}: {e.strerror}") from None
    from google.protobuf.message import DecodeError

    from .sentencepiece_proto import model_proto_class

    proto = model_proto_class()()
    try:
        proto.ParseFromString(data)
    except DecodeError as e:
        raise FormatError(f"{path}: not a SentencePiece model ({e})") from None
    return proto


def _check(path, proto, types):
    from .sp_merges import UNKNOWN  # the protobuf importer's only (the native reader takes most files)

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


def _template(facts, add_bos, add_eos, path):
    """HF-style TemplateProcessing for the requested BOS/EOS, or None."""
    if not (add_bos or add_eos):
        return None
    specials, single, pair = {}, [], []
    for name, wanted in (("bos", add_bos), ("eos", add_eos)):
        tid = facts[f"{name}_id"]
        if wanted and not 0 <= tid < facts["pieces"]:
            raise FormatError(f"{path}: add_{name} is set but the model has no {name} piece")
        if wanted:
            specials[name] = {"id": name, "ids": [tid], "tokens": [facts[f"{name}_piece"]]}
    for seq, type_id, out in (("A", 0, single), ("A", 0, pair), ("B", 1, pair)):
        if add_bos:
            out.append({"SpecialToken": {"id": "bos", "type_id": type_id}})
        out.append({"Sequence": {"id": seq, "type_id": type_id}})
        if add_eos:
            out.append({"SpecialToken": {"id": "eos", "type_id": type_id}})
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": specials}


def _facts(path, proto):
    """What the spec needs of a parsed ModelProto (the native reader,
    convert/sp_model.cc, gives the same dict)."""
    from .sentencepiece_proto import MODEL_TYPES
    from .sp_merges import CONTROL, UNKNOWN, USER_DEFINED

    types = [p.type for p in proto.pieces]
    _check(path, proto, types)
    trainer, norm = proto.trainer_spec, proto.normalizer_spec
    kind = {MODEL_TYPES["UNIGRAM"]: "Unigram", MODEL_TYPES["BPE"]: "SentencePieceBPE"}.get(trainer.model_type)
    if kind is None:
        raise FormatError(f"{path}: SentencePiece model type {trainer.model_type} (WORD/CHAR) "
                          "is not supported by mtok")
    pieces = [p.piece for p in proto.pieces]
    unk_id = types.index(UNKNOWN)

    def piece(i):
        return pieces[i] if 0 <= i < len(pieces) else ""

    return {
        "kind": kind, "pieces": len(pieces), "unk_id": unk_id, "bos_id": trainer.bos_id,
        "eos_id": trainer.eos_id, "byte_fallback": trainer.byte_fallback,
        "treat_whitespace_as_suffix": trainer.treat_whitespace_as_suffix, "unk_surface": trainer.unk_surface,
        "precompiled_charsmap": bytes(norm.precompiled_charsmap), "add_dummy_prefix": norm.add_dummy_prefix,
        "remove_extra_whitespaces": norm.remove_extra_whitespaces, "escape_whitespaces": norm.escape_whitespaces,
        "user_defined": [p for p, t in zip(pieces, types) if t == USER_DEFINED],
        "control": [p for p, t in zip(pieces, types) if t == CONTROL],
        "unk_piece": pieces[unk_id], "bos_piece": piece(trainer.bos_id), "eos_piece": piece(trainer.eos_id),
    }


def load_sentencepiece(path: str, *, add_bos: bool = False, add_eos: bool = False, native: bool = False) -> dict:
    """A .model file -> spec. With `native`, the native reader takes
    well-formed files (the model section comes written, for the .mtok writer
    only); the protobuf importer reads the rest and reports what is wrong."""
    from .. import _native

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FormatError(f"{path}: {e.strerror}") from None
    facts = _native.sp_model_facts(data) if native else None
    if facts is not None:
        model = {"type": facts["kind"], "mtok_section": facts["section"]}
    else:
        proto = read_model_proto(path)
        facts = _facts(path, proto)
        model = {
            "type": facts["kind"],
            "vocab": [[p.piece, p.score] for p in proto.pieces],
            "unk_id": facts["unk_id"],
            "byte_fallback": facts["byte_fallback"],
            "mtok_sentencepiece": True,
            "mtok_piece_types": [p.type for p in proto.pieces],
        }
    return _spec(facts, model, path, add_bos, add_eos)


def _spec(facts, model, path, add_bos, add_eos) -> dict:
    normalizer = {
        "type": "SentencePiece",
        "precompiled_charsmap": facts["precompiled_charsmap"],
        "add_dummy_prefix": facts["add_dummy_prefix"],
        "remove_extra_whitespaces": facts["remove_extra_whitespaces"],
        "escape_whitespaces": facts["escape_whitespaces"],
        "treat_whitespace_as_suffix": facts["treat_whitespace_as_suffix"],
        "user_defined_symbols": facts["user_defined"],
    }
    decoder = {
        "type": "SentencePiece",
        "add_dummy_prefix": facts["add_dummy_prefix"],
        "remove_extra_whitespaces": facts["remove_extra_whitespaces"],
        "byte_fallback": facts["byte_fallback"],
        "unk_piece": facts["unk_piece"],
        "unk_surface": facts["unk_surface"],
        "control": facts["control"],
    }
    extra = {}
    if 0 <= facts["eos_id"] < facts["pieces"]:
        extra["eos_token"] = facts["eos_piece"]
        extra["stop_ids"] = [facts["eos_id"]]
    if 0 <= facts["bos_id"] < facts["pieces"]:
        extra["bos_token"] = facts["bos_piece"]
    return {
        "normalizer": normalizer,
        "pre_tokenizer": None,
        "model": model,
        "decoder": decoder,
        "post_processor": _template(facts, add_bos, add_eos, path),
        "added_tokens": [],
        "mtok": extra,
    }
