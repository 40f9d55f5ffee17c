"""Chat templates as a tokenizer folder stores them, read without jinja2:
the converter records them in .mtok files, and importing jinja2 would cost
a first load more than the rest of the conversion of a small tokenizer."""

import json
import os
from collections.abc import Mapping

DEFAULT_TEMPLATE_NAME = "default"


def split_templates(templates) -> tuple:
    """(single source or None, {name: source}) of a templates value: None, a
    string, a mapping {name: source} or a list of {"name", "template"}.
    Raises TypeError for anything else."""
    if templates is None:
        return None, {}
    if isinstance(templates, str):
        return templates, {}
    if isinstance(templates, Mapping):
        return None, {str(k): _check_source(v, k) for k, v in templates.items()}
    named = {}
    for entry in templates:
        if not isinstance(entry, Mapping) or "name" not in entry or "template" not in entry:
            raise TypeError(
                "a list of chat templates must hold {'name': ..., 'template': ...} dicts,"
                f" got {entry!r:.80}"
            )
        named[str(entry["name"])] = _check_source(entry["template"], entry["name"])
    return None, named


def config_value(single, named):
    """The tokenizer_config.json form of split_templates' result."""
    if single is not None:
        return single
    if named:
        return [{"name": k, "template": v} for k, v in named.items()]
    return None


def directory_templates(path):
    """The templates value of a saved tokenizer directory, with transformers'
    precedence: ``chat_template.jinja`` (as "default") and
    ``additional_chat_templates/*.jinja`` win over ``tokenizer_config.json``."""
    files = {}
    main = os.path.join(path, "chat_template.jinja")
    if os.path.isfile(main):
        files[DEFAULT_TEMPLATE_NAME] = _read_text(main)
    extra_dir = os.path.join(path, "additional_chat_templates")
    if os.path.isdir(extra_dir):
        for entry in sorted(os.listdir(extra_dir)):
            if entry.endswith(".jinja"):
                files[entry[: -len(".jinja")]] = _read_text(os.path.join(extra_dir, entry))
    if len(files) == 1 and DEFAULT_TEMPLATE_NAME in files:
        return files[DEFAULT_TEMPLATE_NAME]
    if files:
        return files
    config_path = os.path.join(path, "tokenizer_config.json")
    if os.path.isfile(config_path):
        with open(config_path, encoding="utf-8") as handle:
            return json.load(handle).get("chat_template")
    return None


def template_files(path) -> list:
    """The chat template files of a tokenizer folder that exist (what a
    conversion reads besides tokenizer_config.json)."""
    out = [os.path.join(path, "chat_template.jinja")]
    extra_dir = os.path.join(path, "additional_chat_templates")
    if os.path.isdir(extra_dir):
        out += [os.path.join(extra_dir, e) for e in sorted(os.listdir(extra_dir)) if e.endswith(".jinja")]
    return [p for p in out if os.path.isfile(p)]


def _check_source(source, name):
    if not isinstance(source, str):
        raise TypeError(f"chat template {name!r} must be a string, got {type(source).__name__}")
    return source


def _read_text(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()
