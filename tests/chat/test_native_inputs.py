"""The native renderer's inputs: messages_json/options_json handling
(normalisation, continue_final_message, validation) held equal to the Python
renderer on the semantic cases of test_chat_parity that JSON can carry; its
strict JSON reader's errors; and the limits that make every render end."""

import json
import subprocess

import pytest

from chat_cases import BOS, EOS, FIXED_NOW
from native_driver import assert_same, python_render, request, run_batch
from test_chat_parity import SEMANTIC_CASES

from mtok.chat import ChatTemplates

USER = {"role": "user", "content": "Hi"}
ECHO = "{% for m in messages %}{{ m }}\n{% endfor %}B={{ bos_token }} E={{ eos_token }} {{ bos_token is defined }}"


def _options(case):
    options = {k: case[k] for k in ("tools", "documents", "add_generation_prompt", "continue_final_message")
               if k in case}
    options.update(case.get("kwargs", {}))
    return options


def _json_safe(value):
    try:
        return json.loads(json.dumps(value)) == value
    except (TypeError, ValueError):
        return False


JSON_CASES = {name: (source, case) for name, (source, case) in SEMANTIC_CASES.items()
              if _json_safe({"messages": case["messages"], "options": _options(case)})}
# More input cases of the native entry point.
JSON_CASES.update({
    "no_special_tokens": (ECHO, {"messages": [USER]}, "", ""),
    "options_override_bos": (ECHO, {"messages": [USER], "kwargs": {"bos_token": "<B>", "x": 1}}),
    "extra_variables": ("{{ enable_thinking }} {{ date_string }} {{ n|tojson }}",
                        {"messages": [USER], "kwargs": {"enable_thinking": False, "date_string": "today", "n": {"a": [1.5]}}}),
    "batch_of_conversations": (ECHO, {"messages": [[USER]]}),
    "documents_none_and_tools_empty": (ECHO + "{{ tools }} {{ documents }}", {"messages": [USER], "tools": []}),
})


def test_cases_were_selected():
    assert len(JSON_CASES) > 40


@pytest.fixture(scope="module")
def replies(native_renderer):
    requests = []
    for entry in JSON_CASES.values():
        source, case, *tokens = entry
        bos, eos = tokens or (BOS, EOS)
        requests.append(request(source, case["messages"], _options(case), bos, eos))
    return dict(zip(JSON_CASES, run_batch(native_renderer, requests)))


@pytest.mark.parametrize("name", list(JSON_CASES))
def test_inputs_like_python(replies, name):
    source, case, *tokens = JSON_CASES[name]
    bos, eos = tokens or (BOS, EOS)
    templates = ChatTemplates(source, clock=lambda: FIXED_NOW)
    expected = python_render(templates, case["messages"], _options(case), bos or None, eos or None)
    assert_same(expected, replies[name], name)


def test_options_cannot_set_messages(native_renderer):
    # Python cannot even pass it (render() gets `messages` twice): the native side says why.
    reply = run_batch(native_renderer, [request(ECHO, [USER], {"messages": []})])[0]
    assert reply == {"ok": False, "kind": "format", "message": "chat template: template variable 'messages' is set by"
                     " the renderer and cannot be passed as a keyword"}


# ---------------------------------------------------------------------------
# JSON reader: strict, with the offset of the problem
# ---------------------------------------------------------------------------

BAD_JSON = [
    ("[{", "expected a string key at offset 2"),
    ("[1,]", "unexpected character, expected a value at offset 3"),
    ('[{"a": 1,}]', "expected a string key at offset 9"),
    ("[NaN]", "unexpected character, expected a value at offset 1"),
    ("[Infinity]", "unexpected character, expected a value at offset 1"),
    ("[01]", "leading zero in a number at offset 1"),
    ("[1.]", "invalid number at offset 1"),
    ("[99999999999999999999]", "integer out of the 64-bit range at offset 1"),
    ('["\\ud800"]', "lone surrogate in a \\u escape at offset 2"),
    ('["\\udc00x"]', "lone surrogate in a \\u escape at offset 2"),
    ('["a\tb"]', "control character in a string at offset 3"),
    ('["\\q"]', "invalid escape in a string at offset 2"),
    ('["abc', "unterminated string at offset 1"),
    ("[] []", "extra data after the JSON value at offset 3"),
    ("", "unexpected end of input, expected a value at offset 0"),
    ("[tru]", "invalid literal at offset 1"),
    ("[" * 600 + "]" * 600, "JSON nested too deeply at offset 512"),
]


@pytest.mark.parametrize("text,error", BAD_JSON, ids=[e for _, e in BAD_JSON])
def test_bad_messages_json(native_renderer, text, error):
    reply = run_batch(native_renderer, [request("x", None, raw_messages=text)])[0]
    assert not reply["ok"] and reply["kind"] == "format"
    assert reply["message"] == f"messages_json: invalid JSON: {error}"


def test_bad_options_json(native_renderer):
    replies = run_batch(native_renderer, [
        request("x", [USER], raw_options="{"),
        request("x", [USER], raw_options="[]"),
        request("x", [USER], raw_options='{"tools": {"a": 1}}'),
    ])
    assert replies[0]["message"] == "options_json: invalid JSON: expected a string key at offset 1"
    assert replies[1]["message"] == "options_json must be a JSON object, got list"
    assert replies[2]["message"].startswith("chat template: Tools should either be a JSON schema")
    assert all(r["kind"] == "format" for r in replies)


def test_json_values_reach_the_template_exactly(native_renderer):
    text = '[{"role": "user", "content": "\\u00e9\\ud83d\\ude00\\n\\"/", "n": [1, -0, 1.5e3, 1E-7, true, null], "k": {"b": 1, "a": 2, "b": 3}}]'
    template = "{{ messages[0].content }}|{{ messages[0].n }}|{{ messages[0].k }}|{{ messages[0]|tojson }}"
    reply = run_batch(native_renderer, [request(template, None, raw_messages=text)])[0]
    expected = ChatTemplates(template).render(json.loads(text))
    assert reply == {"ok": True, "text": expected}


def test_invalid_utf8_is_an_error(native_renderer, tmp_path):
    (tmp_path / "t.jinja").write_bytes(b"{{ messages[0].content }}")
    (tmp_path / "bad.json").write_bytes(b'[{"role": "user", "content": "a\xff"}]')
    (tmp_path / "ok.json").write_bytes(b'[{"role": "user", "content": "a"}]')
    (tmp_path / "bad.jinja").write_bytes(b"\xc3{{ 1 }}")
    run = subprocess.run([str(native_renderer), str(tmp_path / "t.jinja"), str(tmp_path / "bad.json")],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "messages_json: invalid JSON: invalid UTF-8 at offset 31" in run.stderr
    run = subprocess.run([str(native_renderer), str(tmp_path / "bad.jinja"), str(tmp_path / "ok.json")],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "template source: invalid UTF-8 at offset 0" in run.stderr


# ---------------------------------------------------------------------------
# Limits: every render ends, with a RenderLimitError naming the limit
# ---------------------------------------------------------------------------

LIMITS = [
    ("{% for i in range(1000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}", ("--max-iterations=10000",),
     "RenderLimitError: template ran more than 10000 loop iterations"),
    ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}", ("--max-steps=100000",),
     "RenderLimitError: template ran more than 100000 evaluation steps"),
    ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", ("--max-depth=7",),
     "RenderLimitError: template calls nested deeper than 7 levels (runaway recursion?)"),
    ("{% for i in range(100) %}0123456789{% endfor %}", ("--max-length=500",),
     "RenderLimitError: template built a str of length 510, more than the limit of 500"),
    ("{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}", (),
     "RenderLimitError: template built a str of length 134217728, more than the limit of 100000000"),
    ("{{ 'x' * 99999999999 }}", (),
     "RenderLimitError: template repetition would build a sequence of length 99999999999, more than the limit of 100000000"),
    ("{% for i in range(100001) %}{% endfor %}", (),
     "RenderLimitError: range() of 100001 items is larger than the limit of 100000"),
    ("(" * 300 + "1" + ")" * 300, (), "syntax error: template nested too deeply"),
]


@pytest.mark.parametrize("template,flags,error", LIMITS, ids=[e.split(": ")[-1][:40] for _, _, e in LIMITS])
def test_limits(native_renderer, template, flags, error):
    source = template if template.startswith("{") else "{{ " + template + " }}"
    reply = run_batch(native_renderer, [request(source, [USER])], *flags)[0]
    assert not reply["ok"], reply
    assert reply["message"].endswith(error), reply["message"]
