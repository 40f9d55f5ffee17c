"""mtok.chat renders exactly like transformers' apply_chat_template.

1. The corpus matrix: every template under ../shared/corpus/chat_templates x
   every conversation in chat_cases.CONVERSATIONS. Outputs must be identical,
   or both sides must raise the same exception type with the same message.
   Where both reject, the pair must be listed in EXPECTED_BOTH_REJECT (so a new
   rejection is noticed); the run prints a summary of the matrix.
2. Semantics cases with small inline templates for the parts of
   apply_chat_template the corpus does not exercise (input normalisation,
   continue_final_message corner cases, named template selection, errors).
"""

import copy
import dataclasses
import enum
import datetime

import pytest

from chat_cases import (
    CONVERSATIONS,
    FIXED_NOW,
    REQUIRED,
    TEMPLATE_DIR,
    run_mtok,
    run_transformers,
    short_reason,
)

from mtok.chat import ChatTemplates

# ---------------------------------------------------------------------------
# 1. Corpus matrix
# ---------------------------------------------------------------------------

TEMPLATES = sorted(TEMPLATE_DIR.rglob("*.jinja")) if TEMPLATE_DIR.is_dir() else []


def _template_id(path):
    return path.relative_to(TEMPLATE_DIR).with_suffix("").as_posix()


if TEMPLATES:
    TEMPLATE_PARAMS = [pytest.param(p, id=_template_id(p)) for p in TEMPLATES]
else:
    TEMPLATE_PARAMS = [
        pytest.param(
            None,
            id="no-corpus",
            marks=pytest.mark.skip(
                reason=f"chat template corpus not found at {TEMPLATE_DIR} (expected ../shared/corpus/chat_templates"
                " relative to the repository root; set MTOK_SHARED_CORPUS to point elsewhere)"
            ),
        )
    ]

_NO_TOOLS = "iterates `tools` unconditionally; fails when no tools are given"
#: (template id, conversation) -> why both transformers and mtok reject it.
EXPECTED_BOTH_REJECT = {
    ("from_tokenizer_config/gemma3", "tool_calls"): "Gemma 3 has no tool role: raise_exception(roles must alternate)",
    ("llama.cpp/Cohere2MoE", "documents"): "documents without tools: `for tool in tools` over None",
    ("llama.cpp/CohereForAI-c4ai-command-r7b-12-2024-tool_use", "documents"): (
        "documents without tools: `for tool in tools` over None"
    ),
    ("llama.cpp/Kimi-K2-Instruct", "tool_calls"): (
        "calls list.append() on tool responses; the immutable sandbox refuses it (SecurityError)"
    ),
    **{
        ("llama.cpp/NousResearch-Hermes-3-Llama-3.1-8B-tool_use", case): _NO_TOOLS
        for case in ("system_user", "multi_turn", "continue_final", "generation_prompt", "reasoning", "documents")
    },
    **{
        ("llama.cpp/fireworks-ai-llama-3-firefunction-v2", case): "needs a `functions` template variable"
        for case in CONVERSATIONS
    },
    ("llama.cpp/llama-cpp-deepseek-r1", "tools_prompt"): "`tools|map(...)|tojson`: a generator is not JSON serializable",
    ("llama.cpp/llama-cpp-deepseek-r1", "tool_calls"): "`tools|map(...)|tojson`: a generator is not JSON serializable",
}

_compiled = {}


def _mtok_templates(path):
    """One ChatTemplates per corpus template, reused across conversations (so
    each template compiles once, as it would per tokenizer)."""
    if path not in _compiled:
        _compiled[path] = ChatTemplates(path.read_text(encoding="utf-8"), clock=lambda: FIXED_NOW)
    return _compiled[path]


@pytest.mark.parametrize("case_name", list(CONVERSATIONS))
@pytest.mark.parametrize("template_path", TEMPLATE_PARAMS)
def test_corpus_template_matches_transformers(template_path, case_name, hf_tokenizer, pinned_clock, parity_record):
    source = template_path.read_text(encoding="utf-8")
    case = CONVERSATIONS[case_name]
    template_id = _template_id(template_path)

    expected = run_transformers(hf_tokenizer, case, chat_template=source)
    actual = run_mtok(_mtok_templates(template_path), case, hf_tokenizer.special_tokens_map)

    identical = expected == actual
    parity_record(
        {
            "template": template_id,
            "case": case_name,
            "identical": identical,
            "outcome": expected[0],
            "reason": short_reason(expected) if expected[0] == "error" else None,
        }
    )
    if expected[0] == "ok" and actual[0] == "ok":
        assert actual[1] == expected[1], f"{template_id} / {case_name}: rendered text differs"
    else:
        assert actual == expected, f"{template_id} / {case_name}: outcomes differ"

    if expected[0] == "error":
        assert (template_id, case_name) in EXPECTED_BOTH_REJECT, (
            f"{template_id} / {case_name} is rejected by both transformers and mtok but is not listed in"
            f" EXPECTED_BOTH_REJECT ({short_reason(expected)}); add it with the reason if that is right"
        )
        return

    # tokenize=True: transformers encodes the rendered text with add_special_tokens=False;
    # the same encoding of mtok's text gives the same ids.
    ids = hf_tokenizer.apply_chat_template(
        copy.deepcopy(case["messages"]),
        chat_template=source,
        tokenize=True,
        return_dict=False,
        tools=copy.deepcopy(case.get("tools")),
        documents=copy.deepcopy(case.get("documents")),
        add_generation_prompt=case.get("add_generation_prompt", False),
        continue_final_message=case.get("continue_final_message", False),
        **copy.deepcopy(case.get("kwargs", {})),
    )
    assert hf_tokenizer.encode(actual[1], add_special_tokens=False) == list(ids)


def test_required_conversations_are_in_the_matrix():
    assert set(REQUIRED) <= set(CONVERSATIONS)


# ---------------------------------------------------------------------------
# 2. Semantics cases with inline templates
# ---------------------------------------------------------------------------

ECHO = (
    "{%- for m in messages %}[{% for k, v in m.items() %}{{ k }}={{ v }};{% endfor %}]\n{% endfor %}"
    "{%- if tools is not none %}T={{ tools|tojson }}\n{% endif %}"
    "{%- if documents is not none %}D={{ documents|tojson }}\n{% endif %}"
    "B={{ bos_token }} E={{ eos_token }} X={{ extra }}"
    "{% if add_generation_prompt %}<gen>{% endif %}"
)
TURNS = "{% for m in messages %}<{{ m.role }}>{{ m.content }}</{{ m.role }}>\n{% endfor %}"
TRIMMED = "{% for m in messages %}<{{ m.role }}>{{ m.content|trim }}</{{ m.role }}>{% endfor %}"
BLOCKS = (
    "{% for m in messages %}<{{ m.role }}>{% if m.content is string %}{{ m.content }}"
    "{% else %}{% for b in m.content %}{% if b.type == 'text' %}{{ b.text }}{% else %}[{{ b.type }}]{% endif %}"
    "{% endfor %}{% endif %}</{{ m.role }}>{% endfor %}"
)
REASONING = (
    "{% for m in messages %}<{{ m.role }}>{% if m.reasoning_content %}<think>{{ m.reasoning_content }}</think>"
    "{% endif %}{{ m.content }}</{{ m.role }}>{% endfor %}"
)
DROPS_CONTENT = "{% for m in messages %}<{{ m.role }}>{{ m.content[:3] }}</{{ m.role }}>{% endfor %}"


class Colour(enum.Enum):
    RED = "red"


class StrColour(str, enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


@dataclasses.dataclass
class Msg:
    role: str
    content: object


def get_weather(location: str, unit: str = "celsius"):
    """Get the weather for a place.

    Args:
        location: The city, e.g. "Paris".
        unit: Temperature unit.
    """
    return location


USER = {"role": "user", "content": "Hello"}

SEMANTIC_CASES = {
    # input normalisation
    "none_keys_dropped": (
        ECHO,
        {"messages": [USER, {"role": "assistant", "content": None, "tool_calls": None, "name": "bot"}]},
    ),
    "reasoning_alias_from_reasoning": (
        ECHO,
        {"messages": [USER, {"role": "assistant", "content": "4", "reasoning": "2+2"}]},
    ),
    "reasoning_alias_from_thinking": (
        ECHO,
        {"messages": [USER, {"role": "assistant", "thinking": "hmm", "content": "4"}]},
    ),
    "reasoning_alias_conflict": (
        ECHO,
        {"messages": [USER, {"role": "assistant", "thinking": "B", "content": "4", "reasoning_content": "A"}]},
    ),
    "plain_data_kwargs": (
        ECHO,
        {
            "messages": [USER],
            "kwargs": {"extra": [datetime.date(2024, 1, 2), Colour.RED, StrColour.RED, Level.HIGH, (1, 2), {1, 2}, b"x"]},
        },
    ),
    "dataclass_messages": (ECHO, {"messages": [Msg("user", "hi"), Msg("assistant", ["a", ("b", 1)])]}),
    "tuple_conversation": (ECHO, {"messages": (USER, {"role": "assistant", "content": "Hi"})}),
    "tools_and_documents": (
        ECHO,
        {
            "messages": [USER],
            "tools": [CONVERSATIONS["tools_prompt"]["tools"][0]],
            "documents": [{"title": "t", "text": "x"}],
            "add_generation_prompt": True,
        },
    ),
    "empty_tools_list": (ECHO, {"messages": [USER], "tools": []}),
    "function_tool": (ECHO, {"messages": [USER], "tools": [get_weather]}),
    "kwargs_override_special_tokens": (ECHO, {"messages": [USER], "kwargs": {"bos_token": "<B>", "extra": 1}}),
    # continue_final_message
    "continue_plain": (
        TURNS,
        {"messages": [USER, {"role": "assistant", "content": "Hi, I am"}], "continue_final_message": True},
    ),
    "continue_trailing_space_trimmed": (
        TRIMMED,
        {"messages": [USER, {"role": "assistant", "content": "Hi, I am "}], "continue_final_message": True},
    ),
    "continue_trailing_space_kept": (
        TURNS,
        {"messages": [USER, {"role": "assistant", "content": "Hi, I am "}], "continue_final_message": True},
    ),
    "continue_content_blocks": (
        BLOCKS,
        {
            "messages": [
                USER,
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "First."}, {"type": "text", "text": "Then"}, {"type": "image"}],
                },
            ],
            "continue_final_message": True,
        },
    ),
    "continue_blocks_without_text": (
        BLOCKS,
        {"messages": [USER, {"role": "assistant", "content": [{"type": "image"}]}], "continue_final_message": True},
    ),
    "continue_reasoning_field": (
        REASONING,
        {
            "messages": [USER, {"role": "assistant", "content": "", "reasoning_content": "Let me think"}],
            "continue_final_message": "reasoning_content",
        },
    ),
    "continue_thinking_alias": (
        REASONING,
        {
            "messages": [USER, {"role": "assistant", "content": "", "thinking": "Let me think"}],
            "continue_final_message": "thinking",
        },
    ),
    "continue_field_not_in_template": (
        TURNS,
        {"messages": [USER, {"role": "assistant", "content": "x", "plan": "p"}], "continue_final_message": "plan"},
    ),
    "continue_missing_field": (
        TURNS,
        {"messages": [USER, {"role": "assistant", "tool_calls": []}], "continue_final_message": True},
    ),
    "continue_template_drops_content": (
        DROPS_CONTENT,
        {"messages": [USER, {"role": "assistant", "content": "abcdef"}], "continue_final_message": True},
    ),
    "continue_with_generation_prompt": (
        TURNS,
        {"messages": [USER], "continue_final_message": True, "add_generation_prompt": True},
    ),
    # validation errors
    "empty_conversation": (TURNS, {"messages": []}),
    "message_not_a_dict": (TURNS, {"messages": [USER, "hello"]}),
    "document_not_a_dict": (ECHO, {"messages": [USER], "documents": ["text"]}),
    "tool_not_a_schema": (ECHO, {"messages": [USER], "tools": ["get_weather"]}),
    "tools_not_iterable": (ECHO, {"messages": [USER], "tools": 5}),
    "continue_non_string_content": (
        TURNS,
        {"messages": [USER, {"role": "assistant", "content": 42}], "continue_final_message": True},
    ),
    "continue_string_blocks": (
        TURNS,
        {"messages": [USER, {"role": "assistant", "content": ["some text"]}], "continue_final_message": True},
    ),
    # template features
    "tojson_options": (
        "{{ messages[0]|tojson(indent=2, sort_keys=True) }}|{{ messages[0]|tojson(separators=(',', ':')) }}"
        "|{{ messages[0]|tojson(ensure_ascii=True) }}|{{ 'a<b>&c'|tojson }}",
        {"messages": [{"role": "user", "content": "é \"q\" <b>"}]},
    ),
    # transformers' tojson takes ensure_ascii first: tojson(2) means ensure_ascii=2, not indent=2
    "tojson_positional": ("{{ messages[0]|tojson(2) }}", {"messages": [{"role": "user", "content": "é"}]}),
    "dict_global": (
        "{{ dict(a=1, b=[2])|tojson }} {{ dict.fromkeys(['x', 'y'], 0)|tojson }} {{ dict([('k', 'v')]).k }}",
        {"messages": [USER]},
    ),
    "namespace_global": (
        "{% set ns = namespace(n=0, seen=[]) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}{% endfor %}"
        "{{ ns.n }} {{ namespace(a=1) }}",
        {"messages": [USER, USER]},
    ),
    "namespace_underscore": ("{% set ns = namespace(_hidden=1) %}{{ ns }}", {"messages": [USER]}),
    "namespace_underscore_set": ("{% set ns = namespace() %}{% set ns._x = 1 %}{{ ns }}", {"messages": [USER]}),
    "loopcontrols": (
        "{% for i in range(10) %}{% if i is odd %}{% continue %}{% endif %}{% if i > 6 %}{% break %}{% endif %}"
        "{{ i }}{% endfor %}|{{ range(3) }}|{{ range(2, 9, 3)|list }}",
        {"messages": [USER]},
    ),
    "generation_block": (
        "{% for m in messages %}{% if m.role == 'assistant' %}{% generation %}{{ m.content }}{% endgeneration %}"
        "{% else %}{{ m.content }}{% endif %}\n{% endfor %}",
        {"messages": [USER, {"role": "assistant", "content": "Hi"}]},
    ),
    "strftime_now": ("{{ strftime_now('%Y-%m-%d %H:%M:%S %A %d %B') }}", {"messages": [USER]}),
    "whitespace_control": (
        "  {% for m in messages %}\n    {{ m.content }}\n  {% endfor %}\n{{- ' end' -}}\n\n",
        {"messages": [USER, USER]},
    ),
    "undefined_prints_empty": ("[{{ nothing }}][{{ messages[0].missing }}]", {"messages": [USER]}),
    "loop_helpers": (
        "{% for m in messages %}{{ loop.index }}/{{ loop.length }}{{ '!' if loop.last }}"
        "{{ loop.cycle('a','b') }}{% endfor %}{% for m in messages|reverse %}{{ loop.revindex }}{% endfor %}",
        {"messages": [USER, USER, USER]},
    ),
    "recursive_loop": (
        "{% for m in messages recursive %}{{ m.role }}({% if m.children %}{{ loop(m.children) }}{% endif %}){% endfor %}",
        {"messages": [{"role": "a", "children": [{"role": "b", "children": [{"role": "c"}]}]}]},
    ),
    "macro_recursion_shallow": (
        "{% macro walk(x, d) %}{% if x is mapping %}{% for k, v in x.items() %}{{ k }}:{{ walk(v, d + 1) }}"
        "{% endfor %}{% else %}{{ x }}@{{ d }} {% endif %}{% endmacro %}{{ walk(tools[0], 0) }}",
        {"messages": [USER], "tools": [CONVERSATIONS["tools_prompt"]["tools"][0]]},
    ),
    # template errors: both raise, same exception and message
    "raise_exception": ("{{ raise_exception('Only user and assistant roles are supported!') }}", {"messages": [USER]}),
    "undefined_call": ("{{ messages[0].content.nope() }}", {"messages": [USER]}),
    "undefined_attribute_of_undefined": ("{{ nothing.deeper }}", {"messages": [USER]}),
    "mutating_method_refused": ("{% set x = [] %}{{ x.append(1) }}", {"messages": [USER]}),
    "type_error_in_template": ("{{ 1 + messages[0].content }}", {"messages": [USER]}),
    "tojson_of_undefined": ("{{ nothing|tojson }}", {"messages": [USER]}),
    "syntax_error": ("line one\n{% if messages %}\n{{ messages[0].content }\n", {"messages": [USER]}),
    "unknown_filter": ("{{ messages|frobnicate }}", {"messages": [USER]}),
    "unclosed_block": ("{% for m in messages %}{{ m.content }}", {"messages": [USER]}),
}


@pytest.mark.parametrize("case_name", list(SEMANTIC_CASES))
def test_semantics_match_transformers(case_name, hf_tokenizer, pinned_clock):
    source, case = SEMANTIC_CASES[case_name]
    expected = run_transformers(hf_tokenizer, case, chat_template=source)
    actual = run_mtok(ChatTemplates(clock=pinned_clock), case, hf_tokenizer.special_tokens_map, chat_template=source)
    assert actual == expected


# -- named templates -------------------------------------------------------

NAMED = {
    "default": "default:{{ messages[0].content }}",
    "tool_use": "tool_use:{{ tools|length }}",
    "rag": "rag:{{ documents|length }}",
}


@pytest.mark.parametrize(
    "stored, chat_template, tools",
    [
        (NAMED, None, None),
        (NAMED, None, []),  # an empty tools list still selects "tool_use"
        (NAMED, None, [{"type": "function", "function": {"name": "f"}}]),
        (NAMED, "rag", None),
        (NAMED, "default", [{"type": "function", "function": {"name": "f"}}]),
        (NAMED, "inline:{{ messages|length }}", None),
        ({"default": NAMED["default"]}, None, []),  # no tool_use template: default
        ({"rag": NAMED["rag"], "tool_use": NAMED["tool_use"]}, None, None),  # no default: error
        ({"rag": NAMED["rag"], "tool_use": NAMED["tool_use"]}, None, []),
        ("single:{{ messages[0].content }}", None, []),
        ("single:{{ messages[0].content }}", "default", None),  # a single template: the argument is source
        (None, None, None),  # no template at all: error
        (None, "given:{{ messages[0].content }}", None),
    ],
)
def test_template_selection_matches_transformers(stored, chat_template, tools, hf_tokenizer, monkeypatch):
    monkeypatch.setattr(hf_tokenizer, "chat_template", copy.deepcopy(stored))
    case = {"messages": [USER], "tools": tools, "documents": [{"title": "t", "text": "x"}]}
    expected = run_transformers(hf_tokenizer, case, chat_template=chat_template)
    actual = run_mtok(ChatTemplates(stored), case, hf_tokenizer.special_tokens_map, chat_template=chat_template)
    assert actual == expected


def test_template_list_from_tokenizer_config_matches_transformers(hf_tokenizer, monkeypatch):
    # tokenizer_config.json stores several templates as a list of {name, template}
    config_value = [{"name": name, "template": source} for name, source in NAMED.items()]
    monkeypatch.setattr(hf_tokenizer, "chat_template", {e["name"]: e["template"] for e in config_value})
    templates = ChatTemplates.from_config_value(config_value)
    for tools in (None, []):
        case = {"messages": [USER], "tools": tools}
        assert run_mtok(templates, case, {}) == run_transformers(hf_tokenizer, case)
