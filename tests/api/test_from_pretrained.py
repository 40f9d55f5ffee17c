"""Tokenizer.from_pretrained: local folders and model ids in a Hugging Face
cache laid out as huggingface_hub lays it out (built here in a temp dir)."""

import json
import os

import pytest

import mtok
from corpus import file_path
from small_spec import small_spec

COMMIT_A, COMMIT_B = "a" * 40, "b" * 40


def _json(ignore_merges=True) -> str:
    spec = small_spec()
    spec.pop("mtok")
    spec["model"]["ignore_merges"] = ignore_merges
    return json.dumps(spec)


def _snapshot(root, model_id, commit, files, refs=("main",)):
    """models--org--name/{blobs,snapshots/<commit>,refs/<ref>} with the
    snapshot's files as symlinks to blobs, as the hub client writes them."""
    repo = root / ("models--" + model_id.replace("/", "--"))
    snap = repo / "snapshots" / commit
    snap.mkdir(parents=True)
    (repo / "blobs").mkdir(exist_ok=True)
    for name, content in files.items():
        blob = repo / "blobs" / f"{commit}-{name}"
        blob.write_bytes(content if isinstance(content, bytes) else content.encode())
        os.symlink(os.path.relpath(blob, snap), snap / name)
    (repo / "refs").mkdir(exist_ok=True)
    for ref in refs:
        (repo / "refs" / ref).write_text(commit)
    return snap


@pytest.fixture
def hub(tmp_path, monkeypatch):
    root = tmp_path / "hub"
    root.mkdir()
    monkeypatch.setenv("HF_HUB_CACHE", str(root))
    return root


def test_model_id_in_the_cache(hub):
    _snapshot(hub, "org/tiny", COMMIT_A, {
        "tokenizer.json": _json(),
        "tokenizer_config.json": json.dumps({"eos_token": "</s>", "chat_template": "cfg"}),
        "chat_template.jinja": "{% for m in messages %}[{{ m.content }}]{% endfor %}"})
    tok = mtok.Tokenizer.from_pretrained("org/tiny")
    assert tok.encode("hello world", add_special_tokens=False) == \
        mtok.Tokenizer.from_file(hub / "models--org--tiny/snapshots" / COMMIT_A / "tokenizer.json").encode(
            "hello world", add_special_tokens=False)
    assert tok.apply_chat_template([{"role": "user", "content": "hi"}]) == "[hi]"  # .jinja wins
    assert tok.eos_token == "</s>"


def test_revision_branch_and_commit(hub):
    _snapshot(hub, "org/tiny", COMMIT_A, {"tokenizer.json": _json(True)})
    _snapshot(hub, "org/tiny", COMMIT_B, {"tokenizer.json": _json(False)}, refs=("dev",))
    main = mtok.Tokenizer.from_pretrained("org/tiny")
    dev = mtok.Tokenizer.from_pretrained("org/tiny", revision="dev")
    by_hash = mtok.Tokenizer.from_pretrained("org/tiny", revision=COMMIT_B)
    assert main.to_bytes() != dev.to_bytes() == by_hash.to_bytes()


def test_hf_home_and_explicit_cache_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HUGGINGFACE_HUB_CACHE", raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    (tmp_path / "home" / "hub").mkdir(parents=True)
    _snapshot(tmp_path / "home" / "hub", "tiny", COMMIT_A, {"tokenizer.json": _json()})
    assert mtok.Tokenizer.from_pretrained("tiny").encode("hello")
    other = tmp_path / "elsewhere"
    other.mkdir()
    _snapshot(other, "org/x", COMMIT_A, {"tokenizer.json": _json()})
    assert mtok.Tokenizer.from_pretrained("org/x", cache_dir=str(other)).encode("hello")


def test_local_folder(tmp_path):
    (tmp_path / "tokenizer.json").write_text(_json())
    assert mtok.Tokenizer.from_pretrained(tmp_path).encode("hello") == \
        mtok.Tokenizer.from_file(tmp_path / "tokenizer.json").encode("hello")


def test_file_choice_order(tmp_path):
    """tokenizer.json first, then tokenizer.model / spiece.model, then *.tiktoken."""
    from mtok.pretrained import tokenizer_file

    for name in ("z.tiktoken", "a.tiktoken", "spiece.model", "tokenizer.model", "tokenizer.json"):
        (tmp_path / name).write_text("x")
    order = []
    while True:
        path = tokenizer_file(str(tmp_path))
        if path is None:
            break
        order.append(os.path.basename(path))
        os.unlink(path)
    assert order == ["tokenizer.json", "tokenizer.model", "spiece.model", "a.tiktoken", "z.tiktoken"]


def test_sentencepiece_folder_gets_its_chat_template(hub):
    model = file_path("tokenizers", "t5-small", "spiece.model").read_bytes()
    _snapshot(hub, "org/t5", COMMIT_A, {"spiece.model": model,
                                        "chat_template.jinja": "{{ messages[0].content }}!"})
    tok = mtok.Tokenizer.from_pretrained("org/t5")
    assert tok.apply_chat_template([{"role": "user", "content": "hi"}]) == "hi!"
    assert tok.encode("Hello") == mtok.Tokenizer.from_file(file_path("tokenizers", "t5-small", "spiece.model")).encode(
        "Hello")


def test_tiktoken_folder(hub):
    ranks = file_path("tiktoken", "r50k_base.tiktoken").read_bytes()
    _snapshot(hub, "org/gpt", COMMIT_A, {"r50k_base.tiktoken": ranks})
    assert mtok.Tokenizer.from_pretrained("org/gpt").encode("hello world") == [31373, 995]


def test_missing_model_names_the_places(hub):
    with pytest.raises(mtok.ModelNotFoundError) as e:
        mtok.Tokenizer.from_pretrained("org/absent")
    assert str(hub / "models--org--absent") in str(e.value) and "never downloads" in str(e.value)


def test_missing_revision_lists_refs(hub):
    _snapshot(hub, "org/tiny", COMMIT_A, {"tokenizer.json": _json()})
    with pytest.raises(mtok.ModelNotFoundError) as e:
        mtok.Tokenizer.from_pretrained("org/tiny", revision="v2")
    msg = str(e.value)
    assert "refs/v2" in msg and "cached refs: main" in msg


def test_snapshot_without_tokenizer(hub):
    _snapshot(hub, "org/empty", COMMIT_A, {"config.json": "{}"})
    with pytest.raises(mtok.ModelNotFoundError) as e:
        mtok.Tokenizer.from_pretrained("org/empty")
    assert COMMIT_A in str(e.value) and "tokenizer.json" in str(e.value)


def test_never_the_network(hub, monkeypatch):
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError("from_pretrained opened a socket")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    with pytest.raises(mtok.ModelNotFoundError):
        mtok.Tokenizer.from_pretrained("meta-llama/Llama-3-8B")
