"""Chat templates: render conversations exactly like HF transformers'
``apply_chat_template``.

This package is pure Python (jinja2); it needs no native code.

Call contract (for ``Tokenizer.apply_chat_template``)
-----------------------------------------------------

A tokenizer holds one :class:`ChatTemplates`, built from its
``tokenizer_config.json`` ``chat_template`` value (a string, or a list of
``{"name", "template"}``), e.g. ``ChatTemplates.from_config_value(value)``, or
from a saved directory with :meth:`ChatTemplates.from_directory`. Templates are
compiled on first use and cached in that object.

``Tokenizer.apply_chat_template(messages, *, tools=None, documents=None,
add_generation_prompt=False, continue_final_message=False, chat_template=None,
tokenize=False, **template_kwargs)`` should do::

    text = self.chat_templates.render(
        messages,
        tools=tools,
        documents=documents,
        add_generation_prompt=add_generation_prompt,
        continue_final_message=continue_final_message,
        chat_template=chat_template,          # a template name or template source
        special_tokens_map=self.special_tokens_map,  # {"bos_token": "<s>", ...} as strings
        **template_kwargs,                    # extra template variables; override the map
    )
    if not tokenize:
        return text
    return self.encode(text, add_special_tokens=False)

That is what transformers does: the special tokens are template variables
(``bos_token``, ``eos_token``, ``unk_token``, ``pad_token`` ... whichever the
tokenizer defines; user keywords win), and the rendered text is encoded with
``add_special_tokens=False`` because the template already wrote any BOS.
``bos_token=`` / ``eos_token=`` may also be passed to ``render`` directly.

``render`` takes a single conversation (transformers' batched form is not
supported) and returns ``str``. ``continue_final_message`` may be ``True`` or
the name of the field to continue (e.g. ``"reasoning_content"``), as in
transformers.

Errors: every failure is a :class:`mtok.errors.TemplateError`. Its message
reads ``chat template '<name>', line <n>: <reason>`` and it carries the
attributes ``template_name`` (``"<inline>"`` for source passed as
``chat_template=``), ``lineno`` (or None), ``kind`` (``"syntax"``,
``"raise_exception"``, ``"security"``, ``"limit"``, ``"runtime"``,
``"input"``), ``reason`` and ``cause`` (the original exception). Input
validation failures, raised where transformers raises ``ValueError`` /
``TypeError``, are :class:`ChatInputError` / :class:`ChatInputTypeError`,
which are also ``ValueError`` / ``TypeError``.

Resource limits (range size, call depth, loop iterations, sequence size, time)
are set per :class:`ChatTemplates` with :class:`RenderLimits`.
"""

# jinja2 loads with the first use of a name below, not with the package:
# the converter reads template files (files.py) at every first load.
_EXPORTS = {
    "ChatEnvironment": "environment", "RenderLimitError": "environment", "RenderLimits": "environment",
    "tojson": "environment", "DEFAULT_TEMPLATE_NAME": "files", "INLINE_TEMPLATE_NAME": "render",
    "TOOL_USE_TEMPLATE_NAME": "render", "ChatInputError": "render", "ChatInputTypeError": "render",
    "ChatTemplates": "render",
}
__all__ = list(_EXPORTS)


def __getattr__(name):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{module}", __name__), name)
