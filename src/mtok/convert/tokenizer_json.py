"""tokenizer.json (HF tokenizers) -> spec, plus what tokenizer_config.json
and chat_template.jinja beside it add (chat templates, eos/bos, flags)."""

import json
import os

from ..errors import FormatError
from ..format.models import infer_model_type


def _token_text(value):
    """eos_token / bos_token are a string or an AddedToken-like dict."""
    if isinstance(value, dict):
        return value.get("content") or ""
    return value if isinstance(value, str) else ""


def read_tokenizer_config(folder: str) -> dict:
    """The spec's "mtok" extras from tokenizer_config.json and
    chat_template.jinja in `folder` (both optional)."""
    extra = {}
    path = os.path.join(folder, "tokenizer_config.json")
    if os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as f:
                cfg = json.load(f)
        except (OSError, ValueError) as e:
            raise FormatError(f"{path}: {e}") from None
        template = cfg.get("chat_template")
        if isinstance(template, list):
            named = {}
            for entry in template:
                if not isinstance(entry, dict) or "name" not in entry or "template" not in entry:
                    raise FormatError(f"{path}: chat_template list entries need name and template")
                named[entry["name"]] = entry["template"]
            extra["named_templates"] = named
            if "default" in named:
                extra["chat_template"] = named["default"]
        elif isinstance(template, str):
            extra["chat_template"] = template
        extra["eos_token"] = _token_text(cfg.get("eos_token"))
        extra["bos_token"] = _token_text(cfg.get("bos_token"))
        extra["clean_up_tokenization_spaces"] = cfg.get("clean_up_tokenization_spaces") is True
    jinja = os.path.join(folder, "chat_template.jinja")
    if os.path.isfile(jinja) and "chat_template" not in extra:
        with open(jinja, encoding="utf-8") as f:
            extra["chat_template"] = f.read()
    return extra


def spec_from_tokenizer_json(data: dict, folder: str = None) -> dict:
    """Validates the top-level shape and fills what old files leave out."""
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise FormatError("tokenizer.json: no \"model\" object")
    spec = dict(data)
    model = dict(data["model"])
    model["type"] = infer_model_type(model)
    spec["model"] = model
    extra = read_tokenizer_config(folder) if folder else {}
    eos = extra.get("eos_token")
    if eos:
        for t in spec.get("added_tokens") or []:
            if t.get("content") == eos:
                extra["stop_ids"] = [t["id"]]
                break
        else:
            if isinstance(model.get("vocab"), dict) and eos in model["vocab"]:
                extra["stop_ids"] = [model["vocab"][eos]]
    spec["mtok"] = extra
    return spec


def load_tokenizer_json(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except UnicodeDecodeError as e:
        raise FormatError(f"{path}: not UTF-8 JSON ({e})") from None
    except ValueError as e:
        raise FormatError(f"{path}: invalid JSON ({e})") from None
    return spec_from_tokenizer_json(data, os.path.dirname(os.path.abspath(path)))
