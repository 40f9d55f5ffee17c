"""Chat template selection, input preparation and rendering.

See the package docstring (:mod:`mtok.chat`) for the call contract.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import threading
from collections import OrderedDict
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Callable, Iterable, Optional, Union

import jinja2

from ..errors import TemplateError
from .files import DEFAULT_TEMPLATE_NAME, config_value, directory_templates, split_templates
from .environment import (
    ChatEnvironment,
    RenderLimitError,
    RenderLimits,
    RenderState,
    active_render,
)

__all__ = [
    "ChatTemplates",
    "ChatInputError",
    "ChatInputTypeError",
    "DEFAULT_TEMPLATE_NAME",
    "TOOL_USE_TEMPLATE_NAME",
    "INLINE_TEMPLATE_NAME",
]

TOOL_USE_TEMPLATE_NAME = "tool_use"
#: Name used in error messages for a template passed as source text.
INLINE_TEMPLATE_NAME = "<inline>"

# transformers appends this marker to the message being continued, renders,
# then cuts the output at the marker. The same marker is used so that templates
# which transform message text (upper-casing, truncating, ...) behave the same.
_CONTINUE_MARKER = "CONTINUE_FINAL_MESSAGE_TAG "
# Names a message's reasoning may be passed under; the first is canonical.
_REASONING_KEYS = ("reasoning_content", "thinking", "reasoning")
# Variables the renderer itself passes to every template.
_RESERVED_VARIABLES = ("messages", "tools", "documents", "add_generation_prompt")

TemplatesSpec = Union[None, str, Mapping, Iterable]


class ChatInputError(TemplateError, ValueError):
    """The conversation or options were rejected before (or right after)
    rendering, for the same reasons transformers raises ``ValueError``.
    Also a ``ValueError`` so code written against transformers still works."""


class ChatInputTypeError(ChatInputError, TypeError):
    """Like :class:`ChatInputError` where transformers raises ``TypeError``
    (messages or documents that are not dicts, ...)."""


def _error(cls, kind, name, reason, *, lineno=None, label="", cause=None):
    where = f"chat template {name!r}" + (f", line {lineno}" if lineno else "")
    err = cls(f"{where}: {label}{reason}")
    err.template_name = name  # the template's name, or "<inline>" for source text
    err.lineno = lineno  # 1-based line in the template, when known
    err.kind = kind  # "syntax", "raise_exception", "security", "limit", "runtime" or "input"
    err.reason = reason  # the underlying message, without the location prefix
    err.cause = cause  # the original exception, if any (also __cause__)
    return err


def _input_error(name, reason, *, type_error=False):
    cls = ChatInputTypeError if type_error else ChatInputError
    return _error(cls, "input", name, reason)


# ---------------------------------------------------------------------------
# Input normalisation (same observable behaviour as transformers)
# ---------------------------------------------------------------------------


def _objects_to_dicts(value: Any) -> Any:
    """Message objects (dataclasses, pydantic models) to dicts, recursively;
    everything else is left alone."""
    if isinstance(value, Mapping):
        return {k: _objects_to_dicts(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_objects_to_dicts(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_objects_to_dicts(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _objects_to_dicts(getattr(value, f.name)) for f in dataclasses.fields(value)}
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return _objects_to_dicts(dump())
    return value


def _plain(value: Any) -> Any:
    """A copy of ``value`` made only of JSON-like builtins, so the template
    never sees methods of user objects; anything else becomes ``"<TypeName>"``."""
    kind = type(value)
    if value is None or kind is str or kind is int or kind is float or kind is bool:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, Mapping):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.generic):
        return _plain(value.item())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return _plain(dump())
    return f"<{kind.__name__}>"


def _with_reasoning_aliases(chat: list) -> list:
    """Copy a message's reasoning to ``thinking`` (if absent) and to
    ``reasoning_content``, taking the first non-None of the known names."""
    out = []
    for message in chat:
        if isinstance(message, dict):
            reasoning = None
            for key in _REASONING_KEYS:
                if message.get(key) is not None:
                    reasoning = message[key]
                    break
            if reasoning is not None:
                aliased = {"thinking": reasoning}
                aliased.update(message)
                aliased["reasoning_content"] = reasoning
                message = aliased
        out.append(message)
    return out


def _tool_schemas(tools, name):
    if tools is None:
        return None
    schemas = []
    for tool in tools:
        if isinstance(tool, dict):
            schemas.append(tool)
        elif inspect.isfunction(tool) or inspect.ismethod(tool):
            schemas.append(_function_schema(tool, name))
        else:
            raise _input_error(
                name,
                "Tools should either be a JSON schema, or a callable function with type hints "
                "and a docstring suitable for auto-conversion to a schema.",
            )
    return schemas


def _function_schema(func, name):
    # Schema generation from type hints and Google-style docstrings is
    # transformers' own convention; use it when transformers is installed.
    try:
        from transformers.utils.chat_template_utils import get_json_schema
    except Exception:  # pragma: no cover - depends on the environment
        raise _input_error(
            name,
            f"tool {getattr(func, '__name__', func)!r} is a Python function; converting functions to "
            "JSON schemas needs the optional 'transformers' package. Pass a JSON schema dict instead.",
        ) from None
    try:
        return get_json_schema(func)
    except Exception as exc:
        err = _input_error(name, f"cannot convert tool {getattr(func, '__name__', func)!r} to a JSON schema: {exc}")
        err.cause = exc
        raise err from exc


# ---------------------------------------------------------------------------
# Templates
# ---------------------------------------------------------------------------


class ChatTemplates:
    """The chat templates of one tokenizer: ``{name: source}``.

    ``templates`` may be

    * ``None`` - no template; ``render`` then needs ``chat_template=`` source,
    * a string - the tokenizer's only template (transformers' ``str`` case),
    * a mapping ``{name: source}`` or a list of ``{"name": ..., "template": ...}``
      as in ``tokenizer_config.json`` (transformers' ``dict`` case).

    Templates compile on first use and stay cached; template *source* passed
    as ``chat_template=`` is cached too (the last ``inline_cache_size``).

    ``limits`` bounds each render (see :class:`RenderLimits`); ``clock`` is the
    time source for ``strftime_now`` (default :meth:`datetime.now`).
    """

    def __init__(
        self,
        templates: TemplatesSpec = None,
        *,
        limits: Optional[RenderLimits] = None,
        clock: Optional[Callable[[], datetime]] = None,
        inline_cache_size: int = 16,
    ):
        self._single, self._named = split_templates(templates)
        self.limits = limits if limits is not None else RenderLimits()
        self.clock = clock
        self._env = ChatEnvironment()
        self._compiled: dict = {}
        self._inline: OrderedDict = OrderedDict()
        self._inline_cache_size = inline_cache_size
        self._lock = threading.Lock()

    # -- construction helpers -------------------------------------------------

    @classmethod
    def from_config_value(cls, value, **options) -> "ChatTemplates":
        """From the ``chat_template`` value of a ``tokenizer_config.json``
        (string, list of ``{name, template}``, or missing/None)."""
        return cls(value, **options)

    @classmethod
    def from_directory(cls, path, **options) -> "ChatTemplates":
        """Templates of a saved tokenizer directory, with transformers'
        precedence: ``chat_template.jinja`` (as "default") and
        ``additional_chat_templates/*.jinja`` win over ``tokenizer_config.json``."""
        return cls(directory_templates(path), **options)

    # -- inspection -------------------------------------------------------------

    @property
    def names(self) -> list:
        """Template names (``["default"]`` for a single unnamed template)."""
        if self._single is not None:
            return [DEFAULT_TEMPLATE_NAME]
        return list(self._named)

    def __contains__(self, name) -> bool:
        return name in self.names

    def __len__(self) -> int:
        return len(self.names)

    def __bool__(self) -> bool:
        return self._single is not None or bool(self._named)

    def source(self, name: str = DEFAULT_TEMPLATE_NAME) -> str:
        """Source text of a named template (``KeyError`` if absent)."""
        if self._single is not None and name == DEFAULT_TEMPLATE_NAME:
            return self._single
        return self._named[name]

    def to_config_value(self):
        """Inverse of :meth:`from_config_value`."""
        return config_value(self._single, self._named)

    def __repr__(self) -> str:
        return f"ChatTemplates({self.names!r})"

    # -- selection and compilation ----------------------------------------------

    def resolve(self, chat_template: Optional[str] = None, tools=None) -> tuple:
        """``(name, source)`` of the template ``render`` would use.

        As in transformers: with several named templates, ``chat_template`` is
        a name if it is one, else template source; without it, ``"tool_use"``
        is chosen when ``tools`` is not None and that template exists, else
        ``"default"``. With a single template, ``chat_template`` is always
        source text.
        """
        if chat_template is not None and not isinstance(chat_template, str):
            raise _input_error(
                INLINE_TEMPLATE_NAME,
                f"chat_template must be a template name or template source, got {type(chat_template).__name__}",
                type_error=True,
            )
        if self._named:
            if chat_template is not None:
                if chat_template in self._named:
                    return chat_template, self._named[chat_template]
                return INLINE_TEMPLATE_NAME, chat_template
            if tools is not None and TOOL_USE_TEMPLATE_NAME in self._named:
                return TOOL_USE_TEMPLATE_NAME, self._named[TOOL_USE_TEMPLATE_NAME]
            if DEFAULT_TEMPLATE_NAME in self._named:
                return DEFAULT_TEMPLATE_NAME, self._named[DEFAULT_TEMPLATE_NAME]
            raise _input_error(
                INLINE_TEMPLATE_NAME,
                "This model has multiple chat templates with no default specified! Please either pass a chat "
                "template or the name of the template you wish to use to the `chat_template` argument. Available "
                f"template names are {sorted(self._named)}.",
            )
        if chat_template is not None:
            return INLINE_TEMPLATE_NAME, chat_template
        if self._single is not None:
            return DEFAULT_TEMPLATE_NAME, self._single
        raise _input_error(
            INLINE_TEMPLATE_NAME,
            "Cannot use chat template functions because tokenizer.chat_template is not set and no template "
            "argument was passed! For information about writing templates and setting the "
            "tokenizer.chat_template attribute, please see the documentation at "
            "https://huggingface.co/docs/transformers/main/en/chat_templating",
        )

    def compile(self, name: str, source: str) -> jinja2.Template:
        """The compiled template for ``(name, source)``, compiling at most once
        (under a lock, so concurrent first renders compile it once too)."""
        inline = name == INLINE_TEMPLATE_NAME
        with self._lock:
            if inline:
                template = self._inline.get(source)
                if template is not None:
                    self._inline.move_to_end(source)
                    return template
            else:
                hit = self._compiled.get(name)
                if hit is not None and hit[0] is source:
                    return hit[1]
            template = self._compile_uncached(name, source)
            if inline:
                self._inline[source] = template
                while len(self._inline) > self._inline_cache_size:
                    self._inline.popitem(last=False)
            else:
                self._compiled[name] = (source, template)
            return template

    def _compile_uncached(self, name, source):
        filename = _template_filename(name)
        try:
            return self._env.compile_chat_template(source, filename)
        except jinja2.TemplateSyntaxError as exc:
            raise _error(
                TemplateError,
                "syntax",
                name,
                exc.message or str(exc),
                lineno=exc.lineno,
                label="syntax error: ",
                cause=exc,
            ) from exc
        except Exception as exc:  # e.g. RecursionError on absurdly nested source
            raise _error(
                TemplateError, "syntax", name, str(exc), label=f"cannot compile: {type(exc).__name__}: ", cause=exc
            ) from exc

    # -- rendering ------------------------------------------------------------------

    def render(
        self,
        messages,
        *,
        tools=None,
        documents=None,
        add_generation_prompt: bool = False,
        continue_final_message: Union[bool, str] = False,
        chat_template: Optional[str] = None,
        bos_token: Optional[str] = None,
        eos_token: Optional[str] = None,
        special_tokens_map: Optional[Mapping] = None,
        **kwargs,
    ) -> str:
        """Render one conversation to text, exactly like transformers'
        ``apply_chat_template(..., tokenize=False)``.

        ``special_tokens_map`` (e.g. ``{"bos_token": ..., "eos_token": ...,
        "unk_token": ...}``) become template variables; ``bos_token`` /
        ``eos_token`` override their entries; ``**kwargs`` override both and
        are passed to the template as extra variables (``enable_thinking``,
        ``date_string``, ...).

        Raises :class:`mtok.errors.TemplateError` (attributes
        ``template_name``, ``lineno``, ``kind``, ``reason``) on any failure;
        input validation failures are :class:`ChatInputError` (also a
        ``ValueError``) or :class:`ChatInputTypeError` (also a ``TypeError``).
        """
        name, source = self.resolve(chat_template, tools)
        try:
            prepared = self._prepare(
                name, source, messages, tools, documents, add_generation_prompt, continue_final_message,
                bos_token, eos_token, special_tokens_map, kwargs,
            )
        except TemplateError:
            raise
        except Exception as exc:  # e.g. a non-iterable tools argument, absurdly nested input
            err = _input_error(name, f"{type(exc).__name__}: {exc}", type_error=isinstance(exc, TypeError))
            err.cause = exc
            raise err from exc
        template, chat, schemas, documents, variables, continued = prepared

        rendered = self._run(template, name, chat, schemas, documents, add_generation_prompt, variables)

        if continued is not None:
            rendered = _cut_at_marker(rendered, continued, name)
        return rendered

    def _prepare(
        self, name, source, messages, tools, documents, add_generation_prompt, continue_final_message,
        bos_token, eos_token, special_tokens_map, kwargs,
    ):
        """Validate and normalise the inputs the way transformers does, in the
        same order (so the same error wins), and compile the template."""
        if isinstance(messages, (list, tuple)):
            if len(messages) == 0:
                raise _input_error(
                    name, "Cannot apply chat template to an empty conversation. Provide at least one message."
                )
            if isinstance(messages[0], (list, tuple)) or hasattr(messages[0], "messages"):
                raise _input_error(
                    name,
                    "render() takes a single conversation (a list of message dicts), not a batch;"
                    " call it once per conversation.",
                    type_error=True,
                )
        chat = _objects_to_dicts(getattr(messages, "messages", messages))
        normalized = []
        for message in chat:
            if not isinstance(message, dict):
                raise _input_error(
                    name,
                    f"Chat messages should be dicts, dataclasses or pydantic models, but got {message!r}.",
                    type_error=True,
                )
            # Keys whose value is None are dropped (OpenAI-style content=None, tool_calls=None).
            normalized.append({k: v for k, v in message.items() if v is not None})

        if continue_final_message and add_generation_prompt:
            raise _input_error(
                name,
                "continue_final_message and add_generation_prompt are not compatible. Use continue_final_message "
                "when you want the model to continue the final message, and add_generation_prompt when you want "
                "to add a header that will prompt it to start a new assistant message instead.",
            )

        variables = dict(special_tokens_map) if special_tokens_map else {}
        if bos_token is not None:
            variables["bos_token"] = bos_token
        if eos_token is not None:
            variables["eos_token"] = eos_token
        variables.update(kwargs)
        for key in _RESERVED_VARIABLES:
            if key in variables:
                raise _input_error(
                    name, f"template variable {key!r} is set by the renderer and cannot be passed as a keyword",
                    type_error=True,
                )

        template = self.compile(name, source)

        schemas = _tool_schemas(tools, name)
        if documents is not None:
            for document in documents:
                if not isinstance(document, dict):
                    raise _input_error(
                        name, "Documents should be a list of dicts with 'title' and 'text' keys!", type_error=True
                    )
        schemas = _plain(schemas)
        documents = _plain(documents)
        variables = _plain(variables)

        chat = _plain(normalized)  # a fresh copy: the edits below never touch the caller's data
        chat = _with_reasoning_aliases(chat)

        continued = None
        if continue_final_message:
            continued = _mark_final_message(chat, continue_final_message, source, name)

        return template, chat, schemas, documents, variables, continued


    def _run(self, template, name, chat, tools, documents, add_generation_prompt, variables) -> str:
        state = RenderState(self.limits, self.clock)
        try:
            with active_render(state):
                return template.render(
                    messages=chat,
                    tools=tools,
                    documents=documents,
                    add_generation_prompt=add_generation_prompt,
                    **variables,
                )
        except Exception as exc:
            raise _render_error(exc, name, template) from exc


def _mark_final_message(chat, field, source, name):
    """Append the continue marker to the final message; returns its text."""
    field = field if isinstance(field, str) else "content"
    final = chat[-1].get(field)
    if final is None:
        raise _input_error(
            name, f'continue_final_message is set but the final message has no "{field}" to continue!'
        )
    fields = [field]
    if field in _REASONING_KEYS:
        # The reasoning is copied under several names: mark each copy the template might read.
        fields = [key for key in _REASONING_KEYS if chat[-1].get(key) == final]
    if not any(key in source for key in fields):
        raise _input_error(
            name,
            f'continue_final_message is set to "{field}" but this is not an accepted field in the chat_template',
        )
    if isinstance(final, (list, tuple)):
        # Content blocks: continue the last block that has text.
        for block in reversed(final):
            if "text" in block:
                final_text = block["text"]
                block["text"] = block["text"] + _CONTINUE_MARKER
                return final_text
        raise _input_error(
            name, "continue_final_message is set but we could not find any text to continue in the final message!"
        )
    for key in fields:
        chat[-1][key] = chat[-1][key] + _CONTINUE_MARKER
    return final


def _cut_at_marker(rendered, final_text, name):
    marker = _CONTINUE_MARKER.strip()
    if final_text.strip() not in rendered or marker not in rendered:
        raise _input_error(
            name,
            "continue_final_message is set but the final message does not appear in the chat after "
            "applying the chat template! This can happen if the chat template deletes portions of "
            "the final message. Please verify the chat template and final message in your chat to "
            "ensure they are compatible."
            f"Final message to continue: {final_text.strip()}\nRendered chat:\n{rendered}",
        )
    at = rendered.rindex(marker)
    if rendered[at : at + len(_CONTINUE_MARKER)] == _CONTINUE_MARKER:
        return rendered[:at]
    # The template trimmed the space after the marker, so it may also have
    # trimmed the message's own trailing whitespace: cut it too.
    return rendered[:at].rstrip()


def _render_error(exc, name, template):
    lineno = None
    filename = template.filename
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            lineno = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(exc, (RenderLimitError, RecursionError, MemoryError)):
        kind = "limit"
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        kind = "security"
    elif type(exc) is jinja2.exceptions.TemplateError:
        kind = "raise_exception"
    else:
        kind = "runtime"
    reason = exc.message if isinstance(exc, jinja2.TemplateError) and exc.message is not None else str(exc)
    if kind == "raise_exception":
        label = "raise_exception: "
    elif isinstance(exc, RecursionError):
        label = "recursion too deep: "
    else:
        label = f"{type(exc).__name__}: "
    return _error(TemplateError, kind, name, reason, lineno=lineno, label=label, cause=exc)


def _template_filename(name: str) -> str:
    return f"<chat template {name}>"


