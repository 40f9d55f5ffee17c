"""``Tokenizer.from_pretrained``: a local folder, or a model id resolved in
the local Hugging Face cache. Never the network.

The cache is the hub's layout (``models--org--name/refs/<branch>`` holding a
commit hash, ``snapshots/<commit>/`` holding the files), under
``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else
``$XDG_CACHE_HOME/huggingface/hub`` or ``~/.cache/huggingface/hub``, as
huggingface_hub resolves it. The tokenizer file is chosen as transformers
chooses it: ``tokenizer.json``, else ``tokenizer.model`` / ``spiece.model``,
else a ``.tiktoken`` file; ``tokenizer_config.json`` and
``chat_template.jinja`` beside it give the chat templates and special tokens.
"""

import os
import re

from .errors import ModelNotFoundError

# In transformers' order of preference.
TOKENIZER_FILES = ("tokenizer.json", "tokenizer.model", "spiece.model")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")


def hub_cache_dir() -> str:
    """The Hugging Face hub cache folder, as huggingface_hub resolves it."""
    explicit = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    if explicit:
        return os.path.expanduser(explicit)
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "huggingface")
    return os.path.join(os.path.expanduser(home), "hub")


def tokenizer_file(folder: str):
    """The file transformers would load from a tokenizer folder, or None."""
    for name in TOKENIZER_FILES:
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".tiktoken"))
    except OSError:
        return None
    return os.path.join(folder, names[0]) if names else None


def snapshot_folder(model_id: str, revision: str = None, cache_dir: str = None) -> str:
    """The snapshot folder of `model_id` at `revision` (a branch or tag in
    refs/, or a commit hash; default "main") in the local hub cache."""
    root = os.path.expanduser(cache_dir) if cache_dir else hub_cache_dir()
    repo = os.path.join(root, "models--" + model_id.replace("/", "--"))
    revision = revision or "main"
    if not os.path.isdir(repo):
        raise ModelNotFoundError(f"{model_id!r}: not a folder, and not in the Hugging Face cache "
                                 f"(looked for {repo}; mtok never downloads: fetch it with "
                                 "huggingface_hub or point HF_HUB_CACHE/HF_HOME at your cache)")
    ref = os.path.join(repo, "refs", revision)
    commit = None
    if os.path.isfile(ref):
        with open(ref, encoding="utf-8") as f:
            commit = f.read().strip()
    elif _COMMIT.match(revision):
        commit = revision
    snapshot = os.path.join(repo, "snapshots", commit) if commit else None
    if snapshot is None or not os.path.isdir(snapshot):
        known = sorted(os.listdir(os.path.join(repo, "refs"))) if os.path.isdir(os.path.join(repo, "refs")) else []
        raise ModelNotFoundError(f"{model_id!r}: revision {revision!r} is not in the Hugging Face cache "
                                 f"(looked for {ref} and {snapshot or os.path.join(repo, 'snapshots', revision)}; "
                                 f"cached refs: {', '.join(known) or 'none'})")
    return snapshot


def resolve(name_or_path, revision: str = None, cache_dir: str = None) -> str:
    """The tokenizer file of a local folder or a cached model id."""
    name = os.fspath(name_or_path)
    if os.path.isdir(name):
        folder, looked = name, name
    elif os.path.isfile(name):
        return name
    else:
        folder = snapshot_folder(name, revision, cache_dir)
        looked = f"{folder} (snapshot of {name!r})"
    path = tokenizer_file(folder)
    if path is None:
        raise ModelNotFoundError(f"{looked}: no tokenizer file (looked for {', '.join(TOKENIZER_FILES)} "
                                 "and *.tiktoken)")
    return path


def attach_folder_chat(tok, source: str) -> None:
    """Gives a tokenizer converted from a .model or .tiktoken file the chat
    templates and special tokens of its folder's tokenizer_config.json and
    chat_template.jinja (the tokenizer.json importer records them itself)."""
    from .chat import ChatTemplates
    from .convert.tokenizer_json import read_tokenizer_config

    extra = read_tokenizer_config(os.path.dirname(os.path.abspath(source)))
    value = extra.get("named_templates") or extra.get("chat_template")
    if value:
        tok._chat = ChatTemplates.from_config_value(value)
    if extra.get("special_tokens_map"):
        tok._chat_templates()
        tok._chat_meta = dict(tok._chat_meta, special_tokens_map=extra["special_tokens_map"])
