"""Writes a tokenizer spec as .mtok bytes (layout: docs/format.md).

A spec is a tokenizer.json-shaped dict (normalizer, pre_tokenizer, model,
decoder, post_processor, added_tokens) plus an optional "mtok" dict with what
tokenizer.json does not hold: chat templates, eos/bos text, stop ids and
flags. Every importer produces a spec; this module is the only writer of
specs. (A SentencePiece .model with default options is also written whole
by the native core, cpp/src/convert/sp_file.cc, with this module's bytes:
tests/format/test_native_convert.py compares them.)
"""

import json

from ..errors import FormatError
from .binary import ByteWriter
from .codes import END_MAGIC, EXT_MAGIC, MAGIC, MAX_TOKEN_ID, PIPELINE_TYPE, Tag
from .decoders import write_decoder
from .encode_defaults import encode_default_sections
from .normalizers import write_normalizer
from .post import (offset_trim_of, post_type_of, prefix_ids, template_of, write_mnn_program,
                   write_post_section)
from .pre_tokenizers import write_pre_tokenizer


def _added_tokens(spec):
    tokens = spec.get("added_tokens") or []
    for t in tokens:
        if not isinstance(t.get("id"), int) or not 0 <= t["id"] < MAX_TOKEN_ID:
            raise FormatError(f"added token {t.get('content')!r} has invalid id {t.get('id')!r}")
        if not isinstance(t.get("content"), str) or not t["content"]:
            raise FormatError(f"added token {t.get('id')} has empty or missing content")
    return tokens


def _header(spec, tokens, template) -> bytes:
    extra = spec.get("mtok", {})
    special = []
    for t in tokens:
        if t.get("special") and t["id"] not in special:
            special.append(t["id"])
    stop = list(extra.get("stop_ids", []))
    prefix = prefix_ids(template)
    ids = " ".join(str(i) for i in special + stop + prefix)
    return f"{MAGIC} {PIPELINE_TYPE}\n{len(special)} {len(stop)} {len(prefix)}\n{ids}\n".encode()


def _trailer(begin: int, sections) -> list:
    """The extension trailer that starts at file offset `begin`, as parts
    to join (the payloads are not copied here): magic, table, 8-aligned
    payloads (UTRI: 64-aligned), then the end-of-file locator
    [u64 trailer offset] "MTOKEND1"."""
    at = begin + len(EXT_MAGIC) + 4 + 24 * len(sections)
    table = ByteWriter()
    table.raw(EXT_MAGIC)
    table.u32(len(sections))
    parts = [None]
    for tag, flags, payload in sections:
        # The Unigram trie's nodes are cache lines: 64-aligned in the file
        # keeps them aligned in the (page-aligned) mapping.
        pad = -at % (64 if tag == Tag.UNIGRAM_TRIE else 8)
        if pad:
            parts.append(bytes(pad))
        at += pad
        table.u32(tag)
        table.u32(flags)
        table.u64(at)
        table.u64(len(payload))
        parts.append(payload)
        at += len(payload)
    end = ByteWriter()
    end.raw(bytes(-at % 8))
    end.u64(begin)
    end.raw(END_MAGIC)
    parts[0] = table.getvalue()
    parts.append(end.getvalue())
    return parts


def write_mtok(spec: dict, *, accel_sections=None, reuse_model: bool = False) -> bytes:
    """Serializes a spec. Raises FormatError for anything mtok cannot run
    exactly.

    `accel_sections`, a function from the file's bytes to (tag, payload)
    pairs, adds the lookup tables the native core would otherwise build at
    every load: the conversion layer passes the core's own
    (mtok.convert.export.export_mtok). The writer itself stays pure Python.
    With `reuse_model`, the model section of a model dict written before
    (with reuse_model) is reused: the caller never changes a model dict in
    place (mtok.Tokenizer.add_tokens builds new specs around the same one).
    """
    tokens = _added_tokens(spec)
    template = template_of(spec.get("post_processor"))
    extra = spec.get("mtok", {})

    w = ByteWriter()
    w.raw(_header(spec, tokens, template))
    write_normalizer(w, spec.get("normalizer"))
    write_pre_tokenizer(w, spec.get("pre_tokenizer"))
    model = spec.get("model")
    if not isinstance(model, dict):
        raise FormatError("the spec has no model")
    memo = _model_memo(model, reuse_model)
    model_at = len(w)
    head = w.getvalue()
    w = ByteWriter()  # the model section is joined in, not copied into a buffer
    write_decoder(w, spec.get("decoder"))

    w.u32(len(tokens))
    for t in tokens:
        w.u32(t["id"])
        w.flag(t.get("special", False))
        w.flag(t.get("lstrip", False))
        w.flag(t.get("rstrip", False))
        w.str(t["content"], "added token")

    w.long_str(extra.get("chat_template") or "")
    w.str(extra.get("eos_token") or "", "eos token")
    w.u8(1 if extra.get("clean_up_tokenization_spaces") else 0)
    w.str(extra.get("bos_token") or "", "bos token")
    write_mnn_program(w, template)

    sections = []
    flags = bytes((1 if t.get("single_word") else 0) | (2 if t.get("normalized", not t.get("special")) else 0)
                  for t in tokens)
    sections.append((Tag.ADDED_FLAGS, 1, len(tokens).to_bytes(4, "little") + flags))
    post = ByteWriter()
    write_post_section(post, template, post_type_of(spec.get("post_processor")))
    sections.append((Tag.POST, 1, post.getvalue()))
    trim = offset_trim_of(spec.get("post_processor"))
    if trim is not None:
        sections.append((Tag.OFFSET_TRIM, 0, bytes([trim])))
    sections += encode_default_sections(spec)
    chat = {k: extra[k] for k in ("named_templates", "special_tokens_map") if extra.get(k)}
    if chat:
        sections.append((Tag.TEMPLATES, 0, json.dumps(chat, ensure_ascii=False, sort_keys=True).encode()))
    body = [head, memo.section, w.getvalue()]
    data = _assemble(body, sections)
    if accel_sections is not None:
        # The tables depend on the model and, since they may hold file
        # offsets, on where its section starts.
        if memo.accel is None or memo.accel_at != model_at:
            memo.accel = [(tag, 0, payload) for tag, payload in accel_sections(data)]
            memo.accel_at = model_at
        data = _assemble(body, sections + memo.accel)
    return data


class _ModelMemo:
    __slots__ = ("model", "section", "accel", "accel_at")

    def __init__(self, model, section):
        self.model, self.section, self.accel, self.accel_at = model, section, None, -1


_memos = []  # the last few models written: adding tokens rewrites everything else


def _model_memo(model: dict, reuse: bool) -> _ModelMemo:
    """The model section (and acceleration tables) of `model`; with
    `reuse`, kept for the next write of the same model object: a spec that
    only gains added tokens keeps its model dict, whose section takes
    seconds to write for a 200k vocab."""
    if reuse:
        for m in _memos:
            if m.model is model:
                return m
    section = model.get("mtok_section")
    # Written by the native converter (convert/tokenizer_json.py...), byte
    # for byte what models.py gives for the same model: used as it is.
    if not isinstance(section, bytes):
        from .models import write_model  # here: a native section needs none of it

        w = ByteWriter()
        write_model(w, model)
        section = w.getvalue()
    memo = _ModelMemo(model, section)
    if reuse:
        _memos.insert(0, memo)
        del _memos[2:]
    return memo


def _assemble(body: list, sections) -> bytes:
    """The body's parts and the trailer joined: one copy of each part
    (a 10 MB file copied once, not grown and copied again)."""
    return b"".join(body + _trailer(sum(len(b) for b in body), sections))
