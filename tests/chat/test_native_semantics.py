"""The native chat template engine's jinja2 semantics, case by case, held
equal to the Python renderer (mtok.chat: jinja2's ImmutableSandboxedEnvironment
as transformers sets it up) on small templates: whitespace control, literals
and Python reprs, operators, filters, tests, loops, macros, namespaces,
undefined values, slices, tojson, str/dict/list methods and errors. Then
what only the native side has: its JSON reader's errors and its limits."""

import json

import pytest

from chat_cases import FIXED_NOW
from native_driver import assert_same, python_render, request, run_batch

from mtok.chat import ChatTemplates

USER = [{"role": "user", "content": "Hi"}]
DATA = {
    "d": {"b": 2, "a": 1, "C": [1, 2]},
    "l": [3, 1, 2],
    "s": "  Hello, Wörld! ÇA va  ",
    "people": [{"name": "bo", "age": 3}, {"name": "Al", "age": 40}, {"name": "cy"}],
    "n": None,
    "t": True,
    "f": 2.5,
}

# (id, template, extra variables) rendered by both sides.
CASES = [
    # whitespace control (trim_blocks, lstrip_blocks, - and +)
    ("ws_trim_lstrip", "a\n  {% if true %}\n  b\n  {% endif %}\nc", {}),
    ("ws_minus", "x  {%- if true -%}  y  {%- endif -%}  z {{- ' w ' -}} v", {}),
    ("ws_comment", "a\n  {# c #}\nb {#- c -#} c\n{# x #}", {}),
    ("ws_plus", "a\n  {%+ if true %}x{% endif +%}\ny", {}),
    ("ws_raw", "{% raw %}{{ x }}{% if %}{% endraw %}\n!", {}),
    ("ws_crlf_and_trailing_newline", "a\r\nb\rc\n{{ 1 }}\n", {}),
    ("ws_unicode_space", "a\u3000{%- if true %}b{% endif -%}\u00a0\nc", {}),
    ("ws_var_no_trim", "{{ 1 }}\n{{ 2 }}\n", {}),
    # literals and Python's str()/repr()
    ("print_scalars", "{{ 1 }} {{ -0.0 }} {{ 1.0 }} {{ 1e20 }} {{ 1e16 }} {{ 1.5e-7 }} {{ 0.0001 }} {{ 0.1 + 0.2 }}"
     " {{ 1/3 }} {{ none }} {{ true }} {{ False }} {{ 10 ** 15 * 1.0 }} {{ 0x1F }} {{ 1_000 }}", {}),
    ("print_containers", "{{ [1, 'a', none, 2.0] }} {{ {'a': 1, 'b': [true]} }} {{ (1,) }} {{ ('a', 2) }}"
     " {{ [\"it's\", 'q\"', 'both\\'\"'] }} {{ ['\\n\\t\\x01é'] }} {{ d }} {{ 1, 2 }}", {}),
    ("string_escapes", "{{ 'a\\tb\\\\c\\u00e9\\x41\\101\\q' }}|{{ \"x\" 'y' }}", {}),
    # operators
    ("arith", "{{ 7 // 2 }} {{ -7 // 2 }} {{ -7 % 3 }} {{ 7 % -3 }} {{ 2 ** 10 }} {{ 2 ** -1 }} {{ 7 / 2 }}"
     " {{ 'ab' * 3 }} {{ [1] * 2 }} {{ 1 + true }} {{ 5.5 // 2 }} {{ -5.5 % 2 }} {{ -(3) }} {{ +f }} {{ 4 / 2 }}", {}),
    ("compare", "{{ 1 < 2 < 3 }} {{ 1 < 2 > 3 }} {{ 'a' < 'b' }} {{ [1, 2] < [1, 3] }} {{ 1 == 1.0 }} {{ 1 == true }}"
     " {{ 'a' != 'a' }} {{ 2 >= 2 }} {{ none == none }} {{ x == y }} {{ x == 0 }}", {}),
    ("logic", "{{ 0 or 'x' }} {{ '' and 1 }} {{ 1 and [] }} {{ not [] }} {{ not 'a' }} {{ 'y' if 0 else 'n' }}"
     " [{{ 'y' if 0 }}] {{ none or none }}", {}),
    ("in", "{{ 'a' in 'cat' }} {{ 2 in l }} {{ 'a' in d }} {{ 'z' not in d }} {{ 1 in (1, 2) }} {{ 'x' in undef }}", {}),
    ("concat", "{{ 1 ~ none ~ true ~ undef ~ [1] ~ 'é' }}", {}),
    ("markup_plus", "{{ 'a<'|safe + '<b>' }} {{ '<x>' + '&'|safe }} {{ ('<'|safe) ~ '<' }}", {}),
    ("percent_format", "{{ '%s-%d-%05.2f-%r-%%' % ('a', 3, 2.5, 'q') }} {{ '%(a)s' % {'a': 1} }} {{ '%x' % 255 }}", {}),
    # attribute and item access
    ("access", "{{ d.a }} {{ d['b'] }} {{ d.C[1] }} {{ l[-1] }} {{ l.0 }} [{{ d.zz }}] [{{ l[9] }}] {{ people[1].name }}"
     " {{ d.get('zz', 'dflt') }} {{ d.get('a') }} {{ d.items() | list }} {{ d.keys() | list }} {{ d.values() | list }}", {}),
    ("slices", "{{ l[::-1] }} {{ l[1:] }} {{ l[-2:] }} {{ l[:-1] }} {{ l[::2] }} {{ 'héllo'[1:3] }} {{ 'abc'[::-1] }}"
     " {{ l[5:] }} {{ 'abc'[-1] }} {{ (1, 2, 3)[1:] }} {{ l[:] }}", {}),
    # str methods
    ("str_methods", "[{{ s.strip() }}] [{{ s.lstrip() }}] [{{ s.rstrip(' !a') }}] {{ s.split() }} {{ 'a,b,,c'.split(',') }}"
     " {{ 'a b c'.split(' ', 1) }} {{ 'a b c'.rsplit(' ', 1) }} {{ s.upper() }} {{ s.lower() }} {{ 'hello wORLD'.title() }}"
     " {{ 'hELLO'.capitalize() }} {{ 'aaa'.replace('a', 'b', 2) }} {{ 'x'.replace('', '-') }} {{ s.startswith('  He') }}"
     " {{ s.endswith(('x', '  ')) }} {{ 'abcabc'.find('c') }} {{ 'abcabc'.rfind('c') }} {{ 'abcabc'.count('b') }}"
     " {{ '-'.join(['a', 'b']) }} {{ 'a\\nb\\r\\nc'.splitlines() }} {{ 'ab'.center(6, '*') }} {{ '7'.zfill(3) }}"
     " {{ '12'.isdigit() }} {{ ' '.isspace() }} {{ 'ΣΑΣ ΟΔΟΣ'.lower() }} {{ 'straße'.upper() }} {{ 'ǆ x'.title() }}", {}),
    # filters
    ("filters_str", "[{{ s|trim }}] [{{ 'xxhixx'|trim('x') }}] {{ s|length }} {{ s|lower }} {{ s|upper }} {{ 'ab cd'|title }}"
     " {{ 'ab CD'|capitalize }} {{ 'a-b-c'|replace('-', '+') }} {{ 'a-b-c'|replace('-', '+', 1) }} {{ 'a b  c'|wordcount }}"
     " {{ '<a&\"\\'>'|e }} {{ 'x'|safe }} {{ 42|string ~ 'x' }} {{ 'hello world foo'|truncate(9) }}"
     " {{ 'a\\nb\\n\\nc'|indent(2) }}|{{ 'a\\nb'|indent(2, true) }}|{{ 'a\\n\\nb'|indent('> ', blank=true) }}", {}),
    ("filters_num", "{{ '42'|int }} {{ ' 7 '|int }} {{ '3.9'|int }} {{ 'x'|int }} {{ 'x'|int(5) }} {{ none|int }} {{ 2.7|int }}"
     " {{ '1.5'|float }} {{ 'a'|float }} {{ 3|float }} {{ -3|abs }} {{ 2.5|round }} {{ 3.5|round }} {{ 2.675|round(2) }}"
     " {{ 2.1|round(0, 'ceil') }} {{ 2.9|round(method='floor') }} {{ 7|round }} {{ '0x1f'|int(0, 16) }}", {}),
    ("filters_default", "{{ undef|default('d') }} {{ ''|default('d') }} {{ ''|default('d', true) }} {{ none|d('x') }}"
     " {{ 0|default(5, boolean=true) }} {{ d.zz|default('nz') }}", {}),
    ("filters_seq", "{{ l|first }} {{ l|last }} {{ l|join(',') }} {{ l|sort }} {{ l|sort(reverse=true) }} {{ l|list }}"
     " {{ 'abc'|list }} {{ l|sum }} {{ l|min }} {{ l|max }} {{ [1, 2, 1, 3]|unique|list }} {{ l|reverse|list }}"
     " {{ 'abc'|reverse }} {{ [1, 2, 3, 4, 5]|batch(2)|list }} {{ [none, 1]|join('-') }} {{ d|length }}"
     " {{ ['B', 'a', 'C']|sort }} {{ ['B', 'a', 'C']|sort(case_sensitive=true) }} {{ []|first }}", {}),
    ("filters_attr", "{{ people|map(attribute='name')|join(',') }} {{ people|map(attribute='age', default=0)|list }}"
     " {{ people|selectattr('age')|map(attribute='name')|list }} {{ people|rejectattr('age')|list }}"
     " {{ people|selectattr('name', 'equalto', 'Al')|list|length }} {{ people|sort(attribute='name')|map(attribute='name')|list }}"
     " {{ ['a', 'B']|map('upper')|list }} {{ [1, 2, 3, 4]|select('odd')|list }} {{ [1, 2, 3]|reject('==', 2)|list }}"
     " {{ people|map(attribute='name')|unique|list }} {{ people|sum(attribute='age', start=0) if false else '' }}"
     " {{ none|map(attribute='x')|list }} {{ people|max(attribute='name') }}", {}),
    ("filters_dict", "{{ d|dictsort }} {{ d|dictsort(true) }} {{ d|dictsort(by='value', reverse=true) if false else '' }}"
     " {{ d|items|list }} {% for k, v in d|dictsort %}{{ k }}={{ v }};{% endfor %} {{ undef|items|list }}", {}),
    ("tojson", "{{ d|tojson }} {{ d|tojson(indent=2) }} {{ l|tojson(indent=0) }} {{ d|tojson(sort_keys=true) }}"
     " {{ 'é\"\\n\\u0001<>&\\''|tojson }} {{ 'é😀'|tojson(ensure_ascii=true) }} {{ [1.0, 1e20, -0.5, none, true]|tojson }}"
     " {{ d|tojson(separators=(',', ':')) }} {{ {}|tojson(indent=2) }} {{ [[]]|tojson(indent='\\t') }} {{ (1, 2)|tojson }}"
     " {{ {1: 2, none: 3, true: 4, 2.5: 5}|tojson }}", {}),
    # tests
    ("tests", "{{ undef is defined }} {{ n is none }} {{ s is string }} {{ d is mapping }} {{ l is iterable }}"
     " {{ 3 is number }} {{ t is boolean }} {{ 1 is boolean }} {{ f is float }} {{ 1 is integer }} {{ t is integer }}"
     " {{ l is sequence }} {{ 'x' is sequence }} {{ d is sequence }} {{ 3 is odd }} {{ 4 is even }} {{ 9 is divisibleby 3 }}"
     " {{ 1 is eq 1 }} {{ 'a' is equalto 'b' }} {{ 2 is gt 1 }} {{ 2 is lessthan 1 }} {{ 1 is in l }} {{ t is true }}"
     " {{ false is false }} {{ 0 is false }} {{ undef is undefined }} {{ undef is iterable }} {{ 'ab' is lower }}"
     " {{ 'AB' is upper }} {{ n is sameas none }} {{ 'upper' is filter }} {{ 'odd' is test }} {{ 'a' is not string }}"
     " {{ range is callable }} {{ l|map('abs') is iterable }} {{ l|map('abs') is sequence }}", {}),
    # loops
    ("loop_vars", "{% for x in l %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}"
     "{{ loop.first }}{{ loop.last }}{{ loop.length }}[{{ loop.previtem }}|{{ loop.nextitem }}]"
     "{{ loop.cycle('a', 'b') }};{% endfor %}", {}),
    ("loop_else_filter", "{% for x in [] %}x{% else %}empty{% endfor %} {% for x in l if x > 1 %}{{ x }}{{ loop.length }}"
     "{% endfor %} {% for x in undef %}u{% else %}none{% endfor %}", {}),
    ("loop_break_continue", "{% for x in range(10) %}{% if x == 2 %}{% continue %}{% endif %}{% if x > 4 %}{% break %}"
     "{% endif %}{{ x }}{% endfor %}", {}),
    ("loop_unpack_nested", "{% for k, v in d.items() %}{% for y in v if v is iterable %}{{ loop.index }}{% endfor %}"
     "{{ k }}{{ loop.index }};{% endfor %} {% for a, b in [(1, 2), [3, 4]] %}{{ a + b }}{% endfor %}"
     " {% for c in 'hé' %}{{ c }}.{% endfor %} {% for k in d %}{{ k }}{% endfor %}", {}),
    ("loop_scoping", "{% set x = 1 %}{% for i in l %}{% set x = x + i %}{{ x }},{% endfor %} {{ x }} {{ i }}", {}),
    ("range", "{{ range(3)|list }} {{ range(1, 10, 3)|list }} {{ range(5, 0, -2)|list }} {{ range(0)|list }}", {}),
    # set, namespace, macros, call blocks, filter blocks, with
    ("set_forms", "{% set a, b = 1, 2 %}{{ a }}{{ b }} {% set c %}x {{ a }}{% endset %}[{{ c }}]"
     " {% set e | upper | trim %} y {% endset %}[{{ e }}] {% set t = (1, 2) %}{{ t }}", {}),
    ("namespace", "{% set ns = namespace(n=0, items=[]) %}{% for x in l %}{% set ns.n = ns.n + x %}"
     "{% set ns.items = ns.items + [x] %}{% endfor %}{{ ns.n }} {{ ns.items }} {{ ns.missing is defined }}"
     " {% set ns2 = namespace(d) %}{{ ns2.a }}", {}),
    ("macros", "{% macro m(a, b='B', c=none) %}[{{ a }}{{ b }}{{ c }}]{% endmacro %}{{ m(1) }}{{ m(1, 2) }}"
     "{{ m(1, c=3) }}{{ m(a='x') }}{{ m() }} {% macro v() %}{{ varargs }}{{ kwargs }}{% endmacro %}{{ v(1, 2, k=3) }}"
     " {% macro r(n) %}{% if n > 0 %}{{ n }}{{ r(n - 1) }}{% endif %}{% endmacro %}{{ r(3) }}", {}),
    ("call_block", "{% macro box(title) %}<{{ title }}:{{ caller() }}>{% endmacro %}{% call box('t') %}in {{ l[0] }}"
     "{% endcall %} {% macro each(xs) %}{% for x in xs %}{{ caller(x) }}{% endfor %}{% endmacro %}"
     "{% call(item) each(l) %}({{ item }}){% endcall %}", {}),
    ("filter_block_with", "{% filter upper %}abc {{ l[0] }}{% endfilter %} {% with a = 1, b = 2 %}{{ a + b }}{% endwith %}"
     " {% generation %}gen {{ 1 }}{% endgeneration %}", {}),
    ("dict_global", "{{ dict(a=1, b=2) }} {{ dict([('x', 1)]) }} {{ dict(d, z=0)|length }}", {}),
    ("strftime", "{{ strftime_now('%Y-%m-%d %H:%M:%S %A %b %j') }}", {}),
    # undefined values
    ("undefined_print", "[{{ undef }}] [{{ d.zz }}] [{{ undef|length }}] [{{ undef|trim }}] [{{ undef|string }}]"
     " [{{ undef|list }}] [{{ undef|join }}] [{{ undef ~ 'x' }}] {{ undef == undef }} {{ undef != 1 }}", {}),
    # errors, where jinja2 raises
    ("err_raise", "{{ raise_exception('Bad role: ' ~ messages[0].role) }}", {}),
    ("err_undefined_attr", "{{ undef.attr }}", {}),
    ("err_undefined_nested", "{{ d.zz.yy }}", {}),
    ("err_undefined_add", "{{ undef + 1 }}", {}),
    ("err_undefined_call", "{{ undef() }}", {}),
    ("err_undefined_compare", "{{ undef < 1 }}", {}),
    ("err_str_plus_int", "{{ 'a' + 1 }}", {}),
    ("err_int_plus_str", "{{ 1 + 'a' }}", {}),
    ("err_none_iter", "{% for x in n %}{% endfor %}", {}),
    ("err_len_int", "{{ 3|length }}", {}),
    ("err_unsafe_dunder", "{{ d.__class__ }}", {}),
    ("err_unsafe_append", "{{ l.append(4) }}", {}),
    ("err_unsafe_update", "{% set _ = d.update({'x': 1}) %}", {}),
    ("err_namespace_private", "{% set ns = namespace() %}{% set ns._x = 1 %}", {}),
    ("err_tojson_undefined", "{{ undef|tojson }}", {}),
    ("err_tojson_generator", "{{ l|map('abs')|tojson }}", {}),
    ("err_zero_division", "{{ 1 // 0 }}", {}),
    ("err_items_list", "{{ l|items|list }}", {}),
    ("err_unpack", "{% for a, b in l %}{% endfor %}", {}),
    ("err_not_callable", "{{ s() }}", {}),
    ("err_macro_args", "{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}", {}),
    ("err_macro_kwarg", "{% macro m(a) %}{% endmacro %}{{ m(b=2) }}", {}),
    ("err_join_type", "{{ ','.join(l) }}", {}),
    ("err_range_limit", "{{ range(200000)|length }}", {}),
    ("err_recursion_limit", "{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}", {}),
    ("err_repeat_limit", "{{ 'x' * 1000000000 }}", {}),
    ("err_soft_unknown_filter", "{% if l %}{{ l|from_json }}{% endif %}", {}),
    ("soft_unknown_filter_not_run", "{% if false %}{{ l|from_json }}{% endif %}ok", {}),
    ("err_namespace_assign", "{% set x = 1 %}{% set x.a = 2 %}", {}),
    ("err_cond_expr_undefined", "{{ (1 if false).x }}", {}),
    # syntax errors with jinja2's messages
    ("syntax_unknown_tag", "{% foo %}", {}),
    ("syntax_unknown_filter", "{{ 1|nosuchfilter }}", {}),
    ("syntax_unknown_test", "{{ 1 is nosuchtest }}", {}),
    ("syntax_unclosed_block", "{% if true %}x", {}),
    ("syntax_unexpected_end", "{% for x in l %}{% endif %}", {}),
    ("syntax_unclosed_comment", "a {# b", {}),
]


@pytest.fixture(scope="module")
def replies(native_renderer):
    requests = [request(t, USER, {**DATA, **v}) for _, t, v in CASES]
    return dict(zip([c[0] for c in CASES], run_batch(native_renderer, requests)))


@pytest.mark.parametrize("case_id,template,variables", CASES, ids=[c[0] for c in CASES])
def test_same_as_jinja2(replies, case_id, template, variables):
    expected = python_render(ChatTemplates(template, clock=lambda: FIXED_NOW), USER, {**DATA, **variables})
    reply = replies[case_id]
    if expected[0] == "error" and expected[1] == "syntax" and case_id in _SYNTAX_KIND_ONLY:
        assert not reply["ok"] and reply["kind"] == "format", reply
        return
    assert_same(expected, reply, case_id)


# Syntax errors whose wording differs between jinja2 and the native parser:
# both reject the template as a syntax error.
_SYNTAX_KIND_ONLY = {"syntax_unclosed_block", "syntax_unexpected_end"}
