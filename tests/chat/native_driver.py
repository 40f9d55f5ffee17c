r"""Builds tests/native/chat_render_driver (the native chat template renderer
behind a small CLI) once per session and runs batches of renders through it,
next to the Python renderer (mtok.chat, jinja2) they are compared with.

Under ASan and UBSan (MTOK_CHAT_DRIVER makes the tests use that build; the
driver needs only the chat engine, so it builds in minutes without the rest
of the core):

    mkdir -p build/chat-asan
    g++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -Icpp/include \
        -Icpp/src cpp/src/chat/*.cc cpp/src/common/unicode.cc cpp/src/common/utf8.cc cpp/src/io/json_string.cc \
        tests/native/chat_render_driver.cc -o build/chat-asan/chat_render_driver
    MTOK_CHAT_DRIVER=build/chat-asan/chat_render_driver PYTHONPATH=src python -m pytest \
        tests/chat/test_native_renderer.py tests/chat/test_native_semantics.py tests/chat/test_native_inputs.py
"""

import copy
import json
import subprocess
import tempfile
from pathlib import Path

from chat_cases import FIXED_NOW
from native_build import build_native_target

REPO = Path(__file__).resolve().parents[2]
NOW = FIXED_NOW.strftime("%Y-%m-%d %H:%M:%S")
# Where the Python renderer's TemplateError kinds land in the native Status.
NATIVE_KIND = {"input": "format", "syntax": "format", "raise_exception": "encode", "runtime": "encode",
               "security": "encode", "limit": "encode"}


def build_driver(build_dir: Path) -> Path:
    return build_native_target("chat_render_driver", build_dir)


def request(template, messages, options=None, bos="", eos="", raw_messages=None, raw_options=None):
    """One batch line: the template and its inputs as the C API gets them."""
    return {
        "template": template,
        "messages_json": raw_messages if raw_messages is not None else json.dumps(messages),
        "options_json": raw_options if raw_options is not None else ("" if options is None else json.dumps(options)),
        "bos": bos,
        "eos": eos,
    }


def run_batch(driver: Path, requests, *flags):
    """The driver's replies, one per request: {"ok", "text"} or {"ok", "kind", "message"}."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as f:
        for r in requests:
            f.write(json.dumps(r) + "\n")
        path = f.name
    try:
        run = subprocess.run([str(driver), f"--now={NOW}", *flags, "--batch", path], capture_output=True)
    finally:
        Path(path).unlink()
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")[-3000:]
    replies = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
    assert len(replies) == len(requests)
    return replies


def python_render(templates, messages, options=None, bos=None, eos=None):
    """("ok", text) or ("error", kind, reason) from the Python renderer."""
    from mtok.errors import TemplateError

    options = copy.deepcopy(options or {})
    bos = options.pop("bos_token", bos)  # the options override the tokenizer's, as in the C API
    eos = options.pop("eos_token", eos)
    try:
        return ("ok", templates.render(copy.deepcopy(messages), bos_token=bos, eos_token=eos, **options))
    except TemplateError as exc:
        return ("error", exc.kind, exc.reason)


def assert_same(expected, reply, what):
    """The native reply matches the Python outcome: the same text, or an
    error of the corresponding kind whose message ends with Python's reason
    (with Python's label: 'raise_exception: ', 'TypeError: ' ...)."""
    if expected[0] == "ok":
        assert reply["ok"], f"{what}: Python rendered, native failed: {reply['message']}"
        assert reply["text"] == expected[1], f"{what}: rendered text differs:\n{reply['text']!r}\n{expected[1]!r}"
        return
    assert not reply["ok"], f"{what}: Python raised ({expected[1]}: {expected[2][:200]}), native rendered"
    assert reply["kind"] == NATIVE_KIND[expected[1]], f"{what}: {reply}"
    assert reply["message"].endswith(expected[2]), f"{what}: {reply['message']!r} vs {expected[2]!r}"
