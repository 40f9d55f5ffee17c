"""Templates cannot reach Python internals, runaway templates stop quickly,
and every error names the template and the line."""

import threading
import time

import pytest

from mtok.chat import ChatTemplates, RenderLimits
from mtok.errors import TemplateError

MESSAGES = [{"role": "user", "content": "hi"}]

#: Generous bound for "quickly": every runaway case below stops in well under
#: a second on a laptop; the bound only guards against hanging.
QUICK = 5.0


def render(source, limits=None, **kwargs):
    return ChatTemplates(limits=limits).render(kwargs.pop("messages", MESSAGES), chat_template=source, **kwargs)


def fails(source, limits=None, **kwargs):
    start = time.monotonic()
    with pytest.raises(TemplateError) as info:
        render(source, limits=limits, **kwargs)
    elapsed = time.monotonic() - start
    assert elapsed < QUICK, f"took {elapsed:.1f}s"
    return info.value


# ---------------------------------------------------------------------------
# Sandbox escapes
# ---------------------------------------------------------------------------

ESCAPES = {
    "str_class": "{{ ''.__class__ }}",
    "subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "class_in_condition": "{% if messages.__class__ %}yes{% endif %}",
    "class_in_set": "{% set c = messages[0].__class__ %}x",
    "function_globals": "{{ raise_exception.__globals__ }}",
    "strftime_globals": "{{ strftime_now.__globals__['os'] }}",
    "cycler_init_globals": "{{ cycler.__init__.__globals__ }}",
    "joiner_globals": "{{ joiner.__init__.__globals__.os }}",
    "lipsum_globals": "{{ lipsum.__globals__ }}",
    "range_closure": "{{ range.__closure__ }}",
    "namespace_init": "{{ namespace.__init__.__globals__ }}",
    "dict_factory_class": "{{ dict.__class__ }}",
    "self_dict": "{{ self.__dict__ }}",
    "self_private_context": "{{ self._TemplateReference__context }}",
    "loop_class": "{% for m in messages %}{{ loop.__class__ }}{% endfor %}",
    "getitem_dunder": "{{ messages['__class__'] }}",
    "attr_filter": "{{ messages|attr('__class__') }}",
    "map_attribute": "{{ messages|map(attribute='__class__')|list }}",
    "format_field": "{{ '{0.__class__.__init__.__globals__}'.format('') }}",
    "format_filter": "{{ '%s'|format(messages.__class__) }}",
    "generator_frame": "{{ (messages|map(attribute='role')).gi_frame }}",
    "generator_code": "{{ (messages|map(attribute='role')).gi_code }}",
    "macro_private": "{% macro m() %}{% endmacro %}{{ m._func }}",
    "namespace_private_set": "{% set ns = namespace() %}{% set ns.__class__ = 1 %}",
    "namespace_private_init": "{{ namespace(__init__=1) }}",
}


@pytest.mark.parametrize("name", list(ESCAPES))
def test_escape_refused(name):
    err = fails(ESCAPES[name])
    assert err.kind == "security", str(err)
    assert "chat template '<inline>', line 1:" in str(err)
    assert "unsafe" in str(err) or "underscore" in str(err)


@pytest.mark.parametrize(
    "source",
    [
        "{{ messages.append(1) }}",
        "{{ messages.pop() }}",
        "{{ messages[0].update({'role': 'x'}) }}",
        "{{ messages[0].clear() }}",
        "{{ messages.sort() }}",
    ],
)
def test_mutating_builtin_methods_refused_and_data_untouched(source):
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    err = fails(source, messages=messages)
    assert err.kind == "security"
    assert messages == [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]


def test_dict_global_is_not_the_type():
    err = fails("{{ dict.mro() }}")
    assert err.kind == "runtime"  # no such attribute: an undefined value, then an error when called
    assert render("{{ dict(a=1)|tojson }}") == '{"a": 1}'


def test_user_objects_are_flattened_before_the_template_sees_them():
    class Secret:
        def leak(self):
            return "leaked"

    assert render("{{ thing }}|{{ thing.leak }}", thing=Secret()) == "<Secret>|"


def test_no_filesystem_access():
    for source in ("{% include '/etc/passwd' %}", "{% import '/etc/passwd' as x %}", "{% extends '/etc/passwd' %}"):
        err = fails(source)
        assert "no loader" in str(err)  # templates cannot load other files
        assert err.kind == "runtime"


# ---------------------------------------------------------------------------
# Runaway templates
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["10**12", "100001", "-100001, 1", "0, 10**9, 2"])
def test_huge_range(size):
    err = fails("{% for i in range(" + size + ") %}{% endfor %}")
    assert err.kind == "limit"
    assert "range()" in str(err) and "line 1" in str(err)


def test_largest_allowed_range():
    assert render("{{ range(100000)|length }}") == "100000"
    assert render("{{ range(10)|list|length }}", limits=RenderLimits(max_range=10)) == "10"
    assert fails("{{ range(11) }}", limits=RenderLimits(max_range=10)).kind == "limit"


RECURSION = {
    "macro": "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
    "mutual": "{% macro a(n) %}{{ b(n) }}{% endmacro %}{% macro b(n) %}{{ a(n) }}{% endmacro %}{{ a(0) }}",
    "caller": (
        "{% macro a() %}{% call b() %}x{% endcall %}{% endmacro %}"
        "{% macro b() %}{{ caller() }}{{ a() }}{% endmacro %}{{ a() }}"
    ),
    "recursive_loop": "{% for m in messages recursive %}{{ loop(messages) }}{% endfor %}",
    "macro_in_loop": "{% macro f(n) %}{% for i in [n] %}{{ f(i) }}{% endfor %}{% endmacro %}{{ f(1) }}",
}


@pytest.mark.parametrize("name", list(RECURSION))
def test_deep_recursion(name):
    err = fails(RECURSION[name])
    assert err.kind == "limit"
    assert "nested deeper" in str(err)


def test_recursion_limit_is_configurable():
    source = "{% macro f(n) %}{% if n < 40 %}{{ f(n + 1) }}{% else %}{{ n }}{% endif %}{% endmacro %}{{ f(0) }}"
    assert render(source) == "40"
    assert fails(source, limits=RenderLimits(max_call_depth=20)).kind == "limit"


def test_python_recursion_error_is_a_template_error():
    # With the depth limit off, Python's own RecursionError ends it - still a TemplateError.
    err = fails(RECURSION["macro"], limits=RenderLimits(max_call_depth=None))
    assert err.kind == "limit"
    assert isinstance(err.cause, RecursionError)


def test_nested_loops_hit_the_iteration_budget():
    source = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    err = fails(source, limits=RenderLimits(max_loop_iterations=200_000))
    assert err.kind == "limit" and "loop iterations" in str(err)
    # the default budget also ends it (5M iterations, about a second)
    assert fails(source).kind == "limit"


def test_timeout():
    source = "{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}"
    start = time.monotonic()
    err = fails(source, limits=RenderLimits(max_loop_iterations=None, timeout=0.2))
    assert "time limit" in str(err)
    assert time.monotonic() - start < 1.5


GROWTH = {
    "str_repeat": "{{ 'x' * 10**10 }}",
    "list_repeat": "{{ [0] * 10**9 }}",
    "repeat_reversed": "{{ 10**10 * 'x' }}",
    "power": "{{ 2 ** 100000000 }}",
    "power_chain": "{{ 10 ** (10 ** 7) }}",
    "doubling_plus": "{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
    "doubling_tilde": "{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
    "doubling_list": "{% set ns = namespace(s=[1]) %}{% for i in range(60) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
    "percent_width": "{{ '%09999999999d' % 1 }}",
    "percent_star": "{{ '%*d' % (10000000000, 1) }}",
    "center_filter": "{{ 'x'|center(10000000000) }}",
    "indent_filter": "{{ 'a\nb'|indent(10000000000) }}",
    "format_filter": "{{ '%10000000000s'|format('x') }}",
    "str_method": "{{ 'x'.ljust(10000000000) }}",
    "replace_filter": "{{ ('x' * 1000)|replace('x', 'x' * 1000000) }}",
    "replace_method": "{{ ('x' * 1000).replace('x', 'x' * 1000000) }}",
    "join_separator": "{{ range(100000)|map('string')|join('x' * 100000) }}",
    "join_method": "{{ ('x' * 100000).join(range(100000)|map('string')) }}",
    "join_items": "{{ ([('x' * 10000000)] * 1000)|join }}",
    "lipsum": "{{ lipsum(10**8) }}",
}


@pytest.mark.parametrize("name", list(GROWTH))
def test_runaway_growth(name):
    # Doubling reaches the default limit (10**8) only after building a value
    # just under it; a smaller limit keeps this test light on memory.
    limits = RenderLimits(max_sequence_length=10**6) if name.startswith("doubling") else None
    err = fails(GROWTH[name], limits=limits)
    assert err.kind == "limit", str(err)


def test_doubling_stops_at_the_default_limit():
    err = fails("{% set ns = namespace(s='ab') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}")
    assert "more than the limit of 100000000" in str(err)


def test_normal_arithmetic_and_strings_still_work():
    source = (
        "{{ 2 ** 10 }} {{ '-' * 3 }} {{ [1] * 2 }} {{ 'a' + 'b' }} {{ 'a' ~ 1 }} {{ '%5.1f|%-3s|%%' % (2.25, 'x') }}"
        " {{ 'ab'|center(6) }} {{ 'x'.rjust(3, '.') }} {{ 'aXa'|replace('a', 'bb') }} {{ [1, 2]|join(', ') }}"
    )
    assert render(source) == "1024 --- [1, 1] ab a1   2.2|x  |%   ab   ..x bbXbb 1, 2"


def test_state_is_clean_after_a_limit_error():
    templates = ChatTemplates({"default": RECURSION["macro"], "ok": "{{ messages|length }}"})
    for _ in range(3):
        with pytest.raises(TemplateError):
            templates.render(MESSAGES)
        assert templates.render(MESSAGES, chat_template="ok") == "1"


def test_limits_apply_per_thread():
    templates = ChatTemplates(
        {"slow": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
         "fast": "{{ messages|length }}"},
        limits=RenderLimits(max_loop_iterations=100_000),
    )
    results = []

    def worker(name):
        try:
            results.append(templates.render(MESSAGES, chat_template=name))
        except TemplateError as exc:
            results.append(exc.kind)

    threads = [threading.Thread(target=worker, args=(n,)) for n in ["slow", "fast"] * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["1"] * 4 + ["limit"] * 4


def test_absurdly_nested_input():
    content = "x"
    for _ in range(100_000):
        content = [content]
    err = fails("{{ messages|length }}", messages=[{"role": "user", "content": content}])
    assert err.kind == "input" and isinstance(err.cause, RecursionError)


# ---------------------------------------------------------------------------
# Error messages: template name, line, message
# ---------------------------------------------------------------------------

NAMED = {
    "default": "line one\n{{ messages[0].content }}\n{{ raise_exception('Roles must alternate!') }}\n",
    "tool_use": "{% for m in messages %}\n{{ m.content }}\n{{ m.content.missing() }}\n{% endfor %}",
    "broken": "a\nb\n{% if messages %}\n{{ messages[0] }\n{% endif %}",
    "macro": "{% macro show(x) %}\n{{ x.nope.deeper }}\n{% endmacro %}\n\n{{ show(messages[0]) }}",
    "unknown_filter": "\n\n{{ messages|frobnicate }}",
    "unclosed": "{% for m in messages %}\n{{ m.content }}\n",
}


def test_raise_exception_message():
    err = fails_named("default")
    assert str(err) == "chat template 'default', line 3: raise_exception: Roles must alternate!"
    assert (err.template_name, err.lineno, err.kind, err.reason) == ("default", 3, "raise_exception", "Roles must alternate!")


def test_runtime_error_line():
    err = fails_named("tool_use")
    assert str(err).startswith("chat template 'tool_use', line 3: UndefinedError:")
    assert "'str object' has no attribute 'missing'" in str(err)


def test_syntax_error_line():
    err = fails_named("broken")
    assert str(err) == "chat template 'broken', line 4: syntax error: unexpected '}'"
    assert err.kind == "syntax"


def test_error_inside_macro_reports_the_macro_line():
    err = fails_named("macro")
    assert err.lineno == 2 and err.template_name == "macro"


def test_compile_time_errors():
    assert str(fails_named("unknown_filter")) == "chat template 'unknown_filter', line 3: syntax error: No filter named 'frobnicate'."
    err = fails_named("unclosed")
    assert err.kind == "syntax" and err.template_name == "unclosed" and "endfor" in str(err)


def test_inline_template_name_and_limit_line():
    err = fails("\n\n{% for i in range(10**12) %}{% endfor %}")
    assert str(err).startswith("chat template '<inline>', line 3: RenderLimitError: range()")


def test_errors_are_raised_every_time():
    templates = ChatTemplates(NAMED)
    for _ in range(2):
        with pytest.raises(TemplateError, match="line 4"):
            templates.render(MESSAGES, chat_template="broken")


def fails_named(name):
    with pytest.raises(TemplateError) as info:
        ChatTemplates(NAMED).render(MESSAGES, chat_template=name)
    return info.value
