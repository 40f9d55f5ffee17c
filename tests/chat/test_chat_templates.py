"""ChatTemplates API: named templates, loading, caching, variables, errors."""

import copy
import datetime
import json
import shutil

import pytest

from chat_cases import TOKENIZER_FILE

from mtok.chat import ChatInputError, ChatInputTypeError, ChatTemplates
from mtok.errors import MtokError, TemplateError

USER = [{"role": "user", "content": "hi"}]
NAMED = {"default": "D{{ messages|length }}", "tool_use": "T{{ tools|length }}", "rag": "R"}


# -- named templates --------------------------------------------------------


def test_names_and_sources():
    templates = ChatTemplates(NAMED)
    assert templates.names == ["default", "tool_use", "rag"]
    assert "rag" in templates and "nope" not in templates and len(templates) == 3
    assert templates.source("rag") == "R"
    single = ChatTemplates("S")
    assert single.names == ["default"] and single.source() == "S"
    assert not ChatTemplates() and ChatTemplates().names == []


def test_config_value_round_trip():
    as_list = [{"name": k, "template": v} for k, v in NAMED.items()]
    assert ChatTemplates.from_config_value(as_list).to_config_value() == as_list
    assert ChatTemplates.from_config_value("S").to_config_value() == "S"
    assert ChatTemplates.from_config_value(None).to_config_value() is None
    with pytest.raises(TypeError):
        ChatTemplates([{"name": "x"}])
    with pytest.raises(TypeError):
        ChatTemplates({"x": 1})


def test_selection():
    templates = ChatTemplates(NAMED)
    assert templates.render(USER) == "D1"
    assert templates.render(USER, tools=[]) == "T0"
    assert templates.render(USER, chat_template="rag") == "R"
    assert templates.render(USER, chat_template="{{ 'inline' }}") == "inline"
    assert templates.resolve(None, tools=[{}]) == ("tool_use", NAMED["tool_use"])
    with pytest.raises(ChatInputError, match="no default specified"):
        ChatTemplates({"rag": "R"}).render(USER)
    with pytest.raises(ChatInputError, match="tokenizer.chat_template is not set"):
        ChatTemplates().render(USER)


# -- loading a saved tokenizer directory, compared with transformers -----------


def _save(tmp_path, config_template=None, main=None, extra=None):
    if TOKENIZER_FILE.is_file():
        shutil.copy(TOKENIZER_FILE, tmp_path / "tokenizer.json")
    config = {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"}
    if config_template is not None:
        config["chat_template"] = config_template
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    if main is not None:
        (tmp_path / "chat_template.jinja").write_text(main, encoding="utf-8")
    for name, source in (extra or {}).items():
        (tmp_path / "additional_chat_templates").mkdir(exist_ok=True)
        (tmp_path / "additional_chat_templates" / f"{name}.jinja").write_text(source, encoding="utf-8")
    return tmp_path


LAYOUTS = {
    "config_string": dict(config_template="C{{ messages|length }}"),
    "config_list": dict(config_template=[{"name": k, "template": v} for k, v in NAMED.items()]),
    "jinja_file_wins": dict(config_template="C", main="J{{ messages|length }}"),
    "jinja_files_named": dict(config_template="C", main="J", extra={"tool_use": "JT{{ tools|length }}"}),
    "extra_only": dict(extra={"rag": "XR"}),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_from_directory_matches_transformers(layout, tmp_path):
    transformers = pytest.importorskip("transformers")
    if not TOKENIZER_FILE.is_file():
        pytest.skip(f"shared corpus tokenizer not found at {TOKENIZER_FILE}")
    path = _save(tmp_path, **LAYOUTS[layout])
    hf = transformers.PreTrainedTokenizerFast.from_pretrained(str(path))
    ours = ChatTemplates.from_directory(path)
    expected = hf.chat_template
    if isinstance(expected, dict):
        assert {n: ours.source(n) for n in ours.names} == expected
    else:
        assert ours.to_config_value() == expected


# -- compilation cache --------------------------------------------------------


def test_each_template_compiles_once(monkeypatch):
    templates = ChatTemplates(NAMED)
    calls = []
    real = templates._env.compile_chat_template
    monkeypatch.setattr(
        templates._env, "compile_chat_template", lambda source, filename: calls.append(filename) or real(source, filename)
    )
    for _ in range(5):
        templates.render(USER)
        templates.render(USER, tools=[])
        templates.render(USER, chat_template="{{ 'inline' }}")
    assert sorted(calls) == ["<chat template <inline>>", "<chat template default>", "<chat template tool_use>"]
    assert templates.compile(*templates.resolve()) is templates.compile(*templates.resolve())


def test_concurrent_first_renders_compile_once(monkeypatch):
    import threading

    templates = ChatTemplates(NAMED)
    calls = []
    real = templates._env.compile_chat_template
    monkeypatch.setattr(
        templates._env, "compile_chat_template", lambda source, filename: calls.append(filename) or real(source, filename)
    )
    results = []
    threads = [threading.Thread(target=lambda: results.append(templates.render(USER))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["D1"] * 8 and calls == ["<chat template default>"]


def test_inline_cache_is_bounded():
    templates = ChatTemplates(inline_cache_size=2)
    first = templates.compile("<inline>", "a")
    templates.compile("<inline>", "b")
    assert templates.compile("<inline>", "a") is first  # hit, now most recent
    templates.compile("<inline>", "c")  # evicts "b"
    assert templates.compile("<inline>", "a") is first
    assert len(templates._inline) == 2


# -- variables ----------------------------------------------------------------


def test_special_token_variables():
    templates = ChatTemplates("{{ bos_token }}|{{ eos_token }}|{{ unk_token }}|{{ extra }}")
    stm = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
    assert templates.render(USER, special_tokens_map=stm) == "<s>|</s>|<unk>|"
    assert templates.render(USER, special_tokens_map=stm, bos_token="B", extra=1) == "B|</s>|<unk>|1"
    assert templates.render(USER, eos_token="E") == "|E||"
    with pytest.raises(ChatInputTypeError, match="set by the renderer"):
        templates.render(USER, special_tokens_map={"messages": "x"})


def test_strftime_now_uses_the_clock():
    fixed = ChatTemplates("{{ strftime_now('%d %b %Y') }}", clock=lambda: datetime.datetime(2024, 7, 1))
    assert fixed.render(USER) == "01 Jul 2024"
    live = ChatTemplates("{{ strftime_now('%Y-%m-%d') }}").render(USER)
    assert live in {
        (datetime.datetime.now() + datetime.timedelta(days=d)).strftime("%Y-%m-%d") for d in (-1, 0)
    }


def test_function_and_method_tools():
    def add(a: int, b: int):
        """Add two numbers.

        Args:
            a: first
            b: second
        """

    class Calc:
        def mul(self, a: float, b: float) -> float:
            """Multiply.

            Args:
                a: first
                b: second
            """

    pytest.importorskip("transformers")
    out = ChatTemplates("{{ tools|map(attribute='function.name')|join(',') }}").render(USER, tools=[add, Calc().mul])
    assert out == "add,mul"
    with pytest.raises(ChatInputError, match="JSON schema"):
        ChatTemplates("x").render(USER, tools=[lambda x: x])


# -- inputs -------------------------------------------------------------------


def test_caller_data_is_not_modified():
    messages = [
        {"role": "user", "content": "hi", "extra": None},
        {"role": "assistant", "content": [{"type": "text", "text": "Hel"}], "reasoning": "r"},
    ]
    before = copy.deepcopy(messages)
    template = "{% for m in messages %}{{ m.content if m.content is string else m.content[0].text }}{% endfor %}"
    assert ChatTemplates(template).render(messages, continue_final_message=True) == "hiHel"
    assert messages == before


def test_batch_is_rejected():
    with pytest.raises(ChatInputTypeError, match="single conversation"):
        ChatTemplates("x").render([USER, USER])


def test_error_classes():
    with pytest.raises(ChatInputError) as info:
        ChatTemplates("x").render([])
    err = info.value
    assert isinstance(err, TemplateError) and isinstance(err, MtokError) and isinstance(err, ValueError)
    assert err.kind == "input" and err.lineno is None
    with pytest.raises(TypeError):  # ChatInputTypeError is a TypeError too
        ChatTemplates("x").render(["not a dict"])
    with pytest.raises(ChatInputTypeError):
        ChatTemplates("x").render(USER, chat_template=123)
