"""tokenizer.json (HF tokenizers) -> spec, plus what tokenizer_config.json
and chat_template.jinja beside it add (chat templates, eos/bos, flags)."""

import json
import os

from ..errors import FormatError
from ..format.models import infer_model_type
from .serde_float import serde_f64


_SPECIAL_KEYS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token",
                 "mask_token")


def _token_text(value):
    """A special token in tokenizer_config.json: a string or an AddedToken dict."""
    if isinstance(value, dict):
        return value.get("content") or ""
    return value if isinstance(value, str) else ""


def read_tokenizer_config(folder: str) -> dict:
    """The spec's "mtok" extras from a tokenizer folder: chat templates (with
    transformers' precedence: chat_template.jinja and
    additional_chat_templates/ over tokenizer_config.json), the special
    token texts templates see, and clean_up_tokenization_spaces."""
    from ..chat.files import config_value, directory_templates, split_templates

    extra = {}
    path = os.path.join(folder, "tokenizer_config.json")
    cfg = {}
    if os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as f:
                cfg = json.load(f)
        except (OSError, ValueError) as e:
            raise FormatError(f"{path}: {e}") from None
        if not isinstance(cfg, dict):
            raise FormatError(f"{path}: not a JSON object")
    try:
        templates = config_value(*split_templates(directory_templates(folder)))
    except (TypeError, ValueError) as e:
        raise FormatError(f"{folder}: chat templates: {e}") from None
    if isinstance(templates, str):
        extra["chat_template"] = templates
    elif templates:
        extra["named_templates"] = templates
        for entry in templates:
            if entry["name"] == "default":
                extra["chat_template"] = entry["template"]
    specials = {k: _token_text(cfg.get(k)) for k in _SPECIAL_KEYS if _token_text(cfg.get(k))}
    extra_tokens = [_token_text(t) for t in cfg.get("additional_special_tokens") or []]
    if extra_tokens:
        specials["additional_special_tokens"] = [t for t in extra_tokens if t]
    if specials:
        extra["special_tokens_map"] = specials
    extra["eos_token"] = specials.get("eos_token", "")
    extra["bos_token"] = specials.get("bos_token", "")
    extra["clean_up_tokenization_spaces"] = cfg.get("clean_up_tokenization_spaces") is True
    return extra


def spec_from_tokenizer_json(data: dict, folder: str = None, *, extra: dict = None,
                             vocab_id=None) -> dict:
    """Validates the top-level shape and fills what old files leave out.

    `extra` is read_tokenizer_config(folder) when the caller has read it;
    `vocab_id(token)` looks a token up in a vocab the spec does not hold
    (the native fast path keeps it)."""
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise FormatError("tokenizer.json: no \"model\" object")
    spec = dict(data)
    model = dict(data["model"])
    model["type"] = infer_model_type(model)
    spec["model"] = model
    if extra is None:
        extra = read_tokenizer_config(folder) if folder else {}
    if vocab_id is None and isinstance(model.get("vocab"), dict):
        vocab_id = model["vocab"].get
    eos = extra.get("eos_token")
    if eos:
        for t in spec.get("added_tokens") or []:
            if t.get("content") == eos:
                extra["stop_ids"] = [t["id"]]
                break
        else:
            if vocab_id is not None and vocab_id(eos) is not None:
                extra["stop_ids"] = [vocab_id(eos)]
    spec["mtok"] = extra
    return spec


def load_tokenizer_json(path: str, native: bool = False) -> dict:
    """A tokenizer.json -> spec; with `native`, its model section may come
    written by the native reader (see load_tokenizer_json_fast)."""
    spec = load_tokenizer_json_fast(path) if native else None
    if spec is not None:
        return spec
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f, parse_float=serde_f64)  # HF's float bits
    except UnicodeDecodeError as e:
        raise FormatError(f"{path}: not UTF-8 JSON ({e})") from None
    except ValueError as e:
        raise FormatError(f"{path}: invalid JSON ({e})") from None
    return spec_from_tokenizer_json(data, os.path.dirname(os.path.abspath(path)))


def load_tokenizer_json_fast(path: str):
    """The spec of a tokenizer.json with its model section already written
    by the native converter (spec["model"]["mtok_section"]), or None when
    that path does not take the file (load_tokenizer_json then reads it and
    reports what is wrong)."""
    from .. import _native

    with open(path, "rb") as f:
        raw = f.read()
    folder = os.path.dirname(os.path.abspath(path))
    extra = read_tokenizer_config(folder)
    eos = extra.get("eos_token")
    got = _native.hf_model_section(raw, [eos] if eos else [])
    if got is None:
        return None
    begin, end, kind, section, ids = got
    try:
        data = json.loads((raw[:begin] + b"{}" + raw[end:]).decode("utf-8"), parse_float=serde_f64)
    except ValueError:  # UnicodeDecodeError included
        return None
    if not isinstance(data, dict):
        return None
    data["model"] = {"type": kind, "mtok_section": section}
    found = dict(zip([eos], ids)) if eos else {}
    return spec_from_tokenizer_json(data, folder, extra=extra, vocab_id=found.get)
