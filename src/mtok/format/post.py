"""Post-processors: the extension POST section and MNN's single-sequence
program after BOS."""

from ..errors import FormatError
from .binary import ByteWriter
from .codes import Post


def _bert_like(spec, pair_sep_twice: bool, pair_type: int):
    sep_tok, sep_id = spec["sep"]
    cls_tok, cls_id = spec["cls"]
    cls = ("special", [cls_id], 0)
    single = [cls, ("A", None, 0), ("special", [sep_id], 0)]
    pair = [cls, ("A", None, 0), ("special", [sep_id], 0)]
    if pair_sep_twice:
        pair.append(("special", [sep_id], pair_type))
    pair += [("B", None, pair_type), ("special", [sep_id], pair_type)]
    return single, pair


def _template(spec):
    specials = spec.get("special_tokens", {})

    def items(seq, where):
        out = []
        for item in seq:
            if not isinstance(item, dict) or len(item) != 1:
                raise FormatError(f"TemplateProcessing {where}: bad item {item!r}")
            (kind, v), = item.items()
            type_id = int(v.get("type_id", 0))
            if kind == "Sequence":
                if v.get("id") not in ("A", "B"):
                    raise FormatError(f"TemplateProcessing {where}: unknown sequence {v.get('id')!r}")
                out.append((v["id"], None, type_id))
            elif kind == "SpecialToken":
                name = v.get("id")
                if name not in specials:
                    raise FormatError(f"TemplateProcessing {where}: special token {name!r} is not defined")
                out.append(("special", [int(i) for i in specials[name]["ids"]], type_id))
            else:
                raise FormatError(f"TemplateProcessing {where}: unknown item kind {kind!r}")
        return out

    return items(spec.get("single", []), "single"), items(spec.get("pair", []), "pair")


def template_of(spec):
    """(single, pair) item lists for a post-processor spec, or None when it
    adds no tokens. Items are (kind, ids, type_id) with kind "A", "B" or
    "special"."""
    if spec is None:
        return None
    kind = spec.get("type")
    if kind == "ByteLevel":
        return None  # changes offsets only
    if kind == "TemplateProcessing":
        return _template(spec)
    if kind == "BertProcessing":
        return _bert_like(spec, pair_sep_twice=False, pair_type=1)
    if kind == "RobertaProcessing":
        return _bert_like(spec, pair_sep_twice=True, pair_type=0)
    if kind == "Sequence":
        found = [t for t in (template_of(p) for p in spec.get("processors", [])) if t]
        if len(found) > 1:
            raise FormatError("post-processor Sequence with more than one template is not supported")
        return found[0] if found else None
    raise FormatError(f"post-processor type {kind!r} is not supported by mtok")


def post_type_of(spec) -> int:
    """POST type of the processor that adds tokens: HF's Bert and Roberta
    processors are written as templates, but keep their own type for the
    type ids of overflowing pieces (docs/format.md, POST)."""
    kind = spec.get("type") if spec else None
    if kind == "Sequence":
        found = [t for t in (post_type_of(p) for p in spec.get("processors", [])) if t != Post.TEMPLATE]
        return found[0] if found else Post.TEMPLATE
    return {"BertProcessing": Post.BERT, "RobertaProcessing": Post.ROBERTA}.get(kind, Post.TEMPLATE)


def offset_trim_of(spec):
    """add_prefix_space of the processor that trims offsets (HF ByteLevel or
    Roberta with trim_offsets), or None when offsets are not trimmed."""
    if spec is None:
        return None
    kind = spec.get("type")
    if kind == "ByteLevel" and spec.get("trim_offsets", True):
        return bool(spec.get("add_prefix_space", True))
    if kind == "RobertaProcessing" and spec.get("trim_offsets", True):
        return bool(spec.get("add_prefix_space", True))
    if kind == "Sequence":
        found = [t for t in (offset_trim_of(p) for p in spec.get("processors", [])) if t is not None]
        return found[0] if found else None
    return None


def write_post_section(w: ByteWriter, template, post_type: int = Post.TEMPLATE) -> None:
    """Payload of the POST extension section."""
    if template is None:
        w.u8(Post.NONE)
        return
    w.u8(post_type)
    for seq in template:
        w.u16(len(seq))
        for kind, ids, type_id in seq:
            w.u8({"A": Post.ITEM_A, "B": Post.ITEM_B, "special": Post.ITEM_SPECIAL}[kind])
            w.u32(type_id)
            if kind == "special":
                w.u16(len(ids))
                for i in ids:
                    w.u32(i)


def write_mnn_program(w: ByteWriter, template) -> None:
    """MNN's program after BOS: the single template as ops."""
    ops = []
    if template is not None:
        for kind, ids, _ in template[0]:
            if kind == "A":
                ops.append((Post.OP_SEQUENCE_A, None))
            elif kind == "special":
                ops += [(Post.OP_SPECIAL_TOKEN, i) for i in ids]
    w.u16(len(ops))
    for op, tid in ops:
        w.u8(op)
        if tid is not None:
            w.u32(tid)


def prefix_ids(template):
    """Ids the single template puts before the sequence (the header's prefix)."""
    out = []
    if template is not None:
        for kind, ids, _ in template[0]:
            if kind == "A":
                break
            if kind == "special":
                out += ids
    return out
