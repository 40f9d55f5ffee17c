"""Writes a spec as MNN's legacy tokenizer.txt (types 0-3; layout in
docs/legacy_txt.md).

A legacy file records less than a spec. What it cannot record but mtok can
be told at load time (a split regex, a cased BERT, a Unigram model) comes
back as `load_options`. What it cannot record at all is a *loss*: writing
refuses unless `allow_loss` is set, so a lossy file is never made by
accident. Metadata with no place in the format (chat templates) is listed
in `dropped`.
"""

from dataclasses import dataclass, field

from ...errors import FormatError
from .bodies import BODY_WRITERS, choose_type
from ...format.post import template_of

MAGIC = 430
# The models each type can hold.
MODELS = {0: ("BPE", "Unigram"), 1: ("BPE",), 2: ("WordPiece",), 3: ("BPE",)}


@dataclass
class LegacyExport:
    data: bytes
    legacy_type: int
    load_options: dict = field(default_factory=dict)  # pass these when loading the file
    losses: list = field(default_factory=list)        # behaviour the file does not keep
    dropped: list = field(default_factory=list)       # metadata the format has no place for


def _added_token_losses(spec, losses) -> None:
    """Every added token becomes a header "special" id: MNN splits them out of
    the text first; mtok reads them back as special, non-normalized tokens."""
    for t in spec.get("added_tokens") or []:
        name = repr(t.get("content"))
        if not t.get("special", False):
            losses.append(f"added token {name} is not special; the file can only mark it special "
                          "(decode with skip_special_tokens would drop it)")
        for flag in ("lstrip", "rstrip", "single_word"):
            if t.get(flag):
                losses.append(f"added token {name} has {flag}=true, which the file cannot record")
        if t.get("normalized", not t.get("special", False)) and spec.get("normalizer") is not None:
            losses.append(f"added token {name} is matched after normalization; the file matches it "
                          "in the raw text")


def _header_ids(spec, losses, dropped):
    """(special, stop, prefix) ids for lines 2-3."""
    special = []
    for t in spec.get("added_tokens") or []:
        if t["id"] not in special:
            special.append(t["id"])
    extra = spec.get("mtok") or {}
    stop = list(extra.get("stop_ids") or [])
    eos = extra.get("eos_token")
    if not stop and eos:  # MNN's exporter lists the EOS id as a stop id
        stop = [t["id"] for t in spec.get("added_tokens") or [] if t.get("content") == eos][:1]
    template = template_of(spec.get("post_processor"))
    prefix, after = [], False
    if template is not None:
        for kind, ids, _ in template[0]:
            if kind == "A":
                after = True
            elif kind == "special" and not after:
                prefix += ids
            elif kind == "special":
                losses.append(f"the post-processor adds ids {ids} after the text; the file can only "
                              "record ids before it")
        dropped.append("the pair template of the post-processor")
    return special, stop, prefix


def _metadata_dropped(spec, dropped) -> None:
    extra = spec.get("mtok") or {}
    if extra.get("chat_template") or extra.get("named_templates"):
        dropped.append("the chat template (MNN reads it from llm_config.json)")
    if extra.get("clean_up_tokenization_spaces"):
        dropped.append("clean_up_tokenization_spaces")


def _check_header_ids(spec, ids) -> None:
    vocab = (spec.get("model") or {}).get("vocab") or {}
    known = set(range(len(vocab))) if isinstance(vocab, list) else set(vocab.values())
    known |= {t["id"] for t in spec.get("added_tokens") or []}
    missing = sorted(set(ids) - known)
    if missing:
        raise FormatError(f"stop/prefix ids {missing[:5]} have no token, so no line can hold them")


def export_legacy_txt(spec: dict, legacy_type: int = None, allow_loss: bool = False) -> LegacyExport:
    """Writes `spec` as a type 0-3 tokenizer.txt (the type is chosen from
    the model when not given). Raises FormatError when the file would
    tokenize differently and `allow_loss` is false."""
    if legacy_type is None:
        legacy_type = choose_type(spec)
    if legacy_type not in BODY_WRITERS:
        raise FormatError(f"legacy tokenizer.txt types are 0-3, not {legacy_type!r}")
    kind = (spec.get("model") or {}).get("type")
    if kind not in MODELS[legacy_type]:
        raise FormatError(f"a type {legacy_type} tokenizer.txt holds a {' or '.join(MODELS[legacy_type])} "
                          f"model, not {kind}")
    out = LegacyExport(b"", legacy_type)
    _added_token_losses(spec, out.losses)
    special, stop, prefix = _header_ids(spec, out.losses, out.dropped)
    _metadata_dropped(spec, out.dropped)
    _check_header_ids(spec, stop + prefix)
    body = BODY_WRITERS[legacy_type](spec, out)
    if out.losses and not allow_loss:
        raise FormatError(f"a type {legacy_type} tokenizer.txt cannot keep this tokenizer's behaviour:\n  - "
                          + "\n  - ".join(out.losses)
                          + "\n(pass allow_loss=True, CLI --allow-loss, to write it anyway)")
    head = [f"{MAGIC} {legacy_type}",
            f"{len(special)} {len(stop)} {len(prefix)}",
            " ".join(str(i) for i in special + stop + prefix)]
    out.data = ("\n".join(head + body) + "\n").encode("utf-8")
    return out
