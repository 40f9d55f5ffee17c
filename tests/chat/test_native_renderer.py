"""The native chat template renderer (cpp/src/chat, what the C API's
mtok_apply_chat_template runs) renders every corpus template x conversation
exactly like the Python package (mtok.chat: jinja2 in transformers'
environment): byte-identical text, or an error of the same kind with the
same message where Python raises."""

import json

import pytest

from chat_cases import BOS, CONVERSATIONS, CORPUS, EOS, FIXED_NOW, TEMPLATE_DIR
from native_driver import assert_same, python_render, request, run_batch

from mtok.chat import ChatTemplates

TEMPLATE_FILES = sorted(TEMPLATE_DIR.rglob("*.jinja")) if TEMPLATE_DIR.is_dir() else []
CONFIGS = sorted((CORPUS / "tokenizers").glob("*/tokenizer_config.json")) if CORPUS.is_dir() else []


def _token(value):
    if isinstance(value, dict):
        return value.get("content") or ""
    return value or ""


def _corpus_templates():
    """(id, source, bos, eos) of every template file and tokenizer config template."""
    out = [(p.relative_to(TEMPLATE_DIR).with_suffix("").as_posix(), p.read_text(encoding="utf-8"), BOS, EOS)
           for p in TEMPLATE_FILES]
    for path in CONFIGS:
        config = json.loads(path.read_text(encoding="utf-8"))
        value = config.get("chat_template")
        if not value:
            continue
        sources = {"default": value} if isinstance(value, str) else {t["name"]: t["template"] for t in value}
        for name, source in sources.items():
            out.append((f"config/{path.parent.name}/{name}", source, _token(config.get("bos_token")),
                        _token(config.get("eos_token"))))
    return out


TEMPLATES = _corpus_templates()


def _options(case):
    options = {k: case[k] for k in ("tools", "documents", "add_generation_prompt", "continue_final_message") if k in case}
    options.update(case.get("kwargs", {}))
    return options


@pytest.fixture(scope="module")
def outcomes(native_renderer):
    """{(template id, case): (python outcome, native reply)}, rendered in one driver run."""
    keys, requests, expected = [], [], []
    for template_id, source, bos, eos in TEMPLATES:
        templates = ChatTemplates(source, clock=lambda: FIXED_NOW)
        for case_name, case in CONVERSATIONS.items():
            options = _options(case)
            keys.append((template_id, case_name))
            requests.append(request(source, case["messages"], options, bos, eos))
            expected.append(python_render(templates, case["messages"], options, bos or None, eos or None))
    replies = run_batch(native_renderer, requests)
    return dict(zip(keys, zip(expected, replies)))


def test_the_corpus_is_there():
    if not TEMPLATES:
        pytest.skip(f"chat template corpus not found under {CORPUS} (set MTOK_SHARED_CORPUS)")
    assert len(TEMPLATE_FILES) >= 40 and len(TEMPLATES) > len(TEMPLATE_FILES)


@pytest.mark.parametrize("case_name", list(CONVERSATIONS))
@pytest.mark.parametrize("template_id", [t[0] for t in TEMPLATES] or ["no-corpus"])
def test_native_matches_python(outcomes, template_id, case_name):
    if template_id == "no-corpus":
        pytest.skip(f"chat template corpus not found under {CORPUS}")
    expected, reply = outcomes[(template_id, case_name)]
    assert_same(expected, reply, f"{template_id} / {case_name}")


def test_most_corpus_cases_render(outcomes):
    # The matrix must mostly compare rendered text, not agreeing errors.
    if not outcomes:
        pytest.skip("no corpus")
    rendered = sum(1 for expected, _ in outcomes.values() if expected[0] == "ok")
    assert rendered >= 0.9 * len(outcomes)
