"""Conversations of the chat template parity matrix, and helpers that run a
case through transformers and through mtok (shared by the tests)."""

import copy
import datetime
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: ../shared/corpus relative to the repository root (override: MTOK_SHARED_CORPUS).
CORPUS = Path(os.environ.get("MTOK_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))
TEMPLATE_DIR = CORPUS / "chat_templates"
TOKENIZER_FILE = CORPUS / "tokenizers" / "llama3" / "tokenizer.json"
BOS, EOS = "<|begin_of_text|>", "<|eot_id|>"

#: The instant strftime_now() returns in every test (both implementations).
FIXED_NOW = datetime.datetime(2026, 3, 14, 9, 26, 53)

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Get the current weather in a given location.",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "City and country, e.g. Paris, France"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Temperature unit"},
            },
            "required": ["location"],
        },
    },
}

SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search_web",
        "description": "Search the web & return the top results (\"snippets\").",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to search for"},
                "max_results": {"type": "integer", "description": "How many results, 1-10"},
            },
            "required": ["query"],
        },
    },
}

SYSTEM = {"role": "system", "content": "You are a helpful assistant. Answer briefly."}

CONVERSATIONS = {
    "system_user": {
        "messages": [SYSTEM, {"role": "user", "content": "What is the capital of France?"}],
    },
    "multi_turn": {
        "messages": [
            SYSTEM,
            {"role": "user", "content": "Hi there! Ça va? 你好"},
            {"role": "assistant", "content": "Hello! I'm fine, thanks. How can I help?"},
            {"role": "user", "content": "Write <b>bold</b> & \"quoted\" text."},
            {"role": "assistant", "content": "Sure: <b>bold</b> & \"quoted\"."},
        ],
    },
    "continue_final": {
        "messages": [
            {"role": "user", "content": "Name three primary colours."},
            {"role": "assistant", "content": "The three primary colours are"},
        ],
        "continue_final_message": True,
    },
    "generation_prompt": {
        "messages": [
            SYSTEM,
            {"role": "user", "content": "Tell me a joke."},
        ],
        "add_generation_prompt": True,
    },
    "tools_prompt": {
        "messages": [
            SYSTEM,
            {"role": "user", "content": "What's the weather like in Paris today?"},
        ],
        "tools": [WEATHER_TOOL, SEARCH_TOOL],
        "add_generation_prompt": True,
    },
    "tool_calls": {
        "messages": [
            SYSTEM,
            {"role": "user", "content": "What's the weather like in Paris today?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": "call_0001",
                        "type": "function",
                        "function": {
                            "name": "get_current_weather",
                            "arguments": {"location": "Paris, France", "unit": "celsius"},
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_0001", "name": "get_current_weather", "content": "22 degrees, sunny"},
            {"role": "assistant", "content": "It is 22 °C and sunny in Paris."},
            {"role": "user", "content": "Thanks!"},
        ],
        "tools": [WEATHER_TOOL, SEARCH_TOOL],
        "add_generation_prompt": True,
    },
    "reasoning": {
        "messages": [
            {"role": "user", "content": "What is 17 * 3?"},
            {"role": "assistant", "content": "51", "reasoning_content": "17 * 3 = 51."},
            {"role": "user", "content": "And 51 / 3?"},
        ],
        "add_generation_prompt": True,
        "kwargs": {"enable_thinking": False},
    },
    "documents": {
        "messages": [{"role": "user", "content": "When was the tower built?"}],
        "documents": [
            {"title": "Eiffel Tower", "text": "The Eiffel Tower was built from 1887 to 1889."},
            {"title": "Paris", "text": "Paris is the capital of France."},
        ],
        "add_generation_prompt": True,
    },
}

#: The conversations the task requires; the others are extra coverage.
REQUIRED = ("system_user", "multi_turn", "continue_final", "tool_calls", "generation_prompt")


# ---------------------------------------------------------------------------
# Running one case through transformers and through mtok
# ---------------------------------------------------------------------------


def _args(case):
    return dict(
        tools=copy.deepcopy(case.get("tools")),
        documents=copy.deepcopy(case.get("documents")),
        add_generation_prompt=case.get("add_generation_prompt", False),
        continue_final_message=case.get("continue_final_message", False),
        **copy.deepcopy(case.get("kwargs", {})),
    )


def run_transformers(tokenizer, case, chat_template=None):
    """``("ok", text)`` or ``("error", exception type name, message)``."""
    try:
        text = tokenizer.apply_chat_template(
            copy.deepcopy(case["messages"]), chat_template=chat_template, tokenize=False, **_args(case)
        )
    except Exception as exc:  # noqa: BLE001 - any failure is an outcome to compare
        return ("error", type(exc).__name__, str(exc))
    return ("ok", text)


def run_mtok(templates, case, special_tokens_map, chat_template=None):
    """Same outcome shape as :func:`run_transformers`. A TemplateError is
    described by its cause (the jinja2/Python exception, as transformers would
    raise it) or, for input validation, as the ValueError/TypeError it also is."""
    from mtok.errors import TemplateError

    try:
        text = templates.render(
            copy.deepcopy(case["messages"]),
            chat_template=chat_template,
            special_tokens_map=special_tokens_map,
            **_args(case),
        )
    except TemplateError as exc:
        cause = getattr(exc, "cause", None)
        if cause is not None:
            return ("error", type(cause).__name__, str(cause))
        return ("error", "TypeError" if isinstance(exc, TypeError) else "ValueError", exc.reason)
    return ("ok", text)


def short_reason(outcome):
    first = outcome[2].strip().splitlines()[0] if outcome[2].strip() else ""
    return f"{outcome[1]}: {first[:140]}"
