"""The sandboxed jinja2 environment that chat templates run in.

Behaviour visible to well-behaved templates is the same as in HF
``transformers`` (``ImmutableSandboxedEnvironment`` with ``trim_blocks`` and
``lstrip_blocks``, the ``loopcontrols`` extension, a ``{% generation %}`` block
tag, the ``tojson`` filter that does not HTML-escape, and the globals
``raise_exception``, ``strftime_now``, ``dict`` and ``namespace``).

On top of that the environment enforces limits so that a hostile or broken
template ends with an error instead of hanging or eating memory:

* ``range()`` larger than :attr:`RenderLimits.max_range` items is refused
  (jinja2's own sandbox limit is 100000; the default here is the same).
* nested calls (macros, ``caller()``, recursive ``loop()``) deeper than
  :attr:`RenderLimits.max_call_depth` are refused, well before Python's own
  recursion limit.
* the total number of ``{% for %}`` iterations in one render is capped by
  :attr:`RenderLimits.max_loop_iterations`, and a wall-clock budget
  (:attr:`RenderLimits.timeout`) is checked on every call and every few loop
  iterations.
* ``*`` and ``**`` are checked *before* they run (``'x' * 10**12``,
  ``9 ** 9 ** 9``) and ``+`` / ``~`` results are checked after, so repeated
  doubling stops at :attr:`RenderLimits.max_sequence_length`.
* access to an underscore-prefixed or interpreter-internal attribute
  (``__class__``, ``__globals__``, ``mro``, ``gi_frame`` ...) raises at once.
  Plain jinja2 (and therefore transformers) returns an undefined value that
  only fails when used, so ``{{ x.__class__ }}`` silently prints nothing
  there; here it is an error.

These limits are a guard against runaway templates, not a complete resource
sandbox: some filters (``center``, ``indent``, ``format`` with huge widths) can
still allocate a lot in one step. Untrusted templates on a shared server
should additionally run in a process with an address-space limit.

The loop and concatenation guards are added by rewriting the parsed template
(each ``For.iter`` and ``Concat`` node is wrapped in an internal filter); the
rendered text is unchanged.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import json
import math
import re
import time
from datetime import datetime
from typing import Any, Callable, Iterator, Optional

import jinja2
import jinja2.ext
import jinja2.nodes
import jinja2.utils
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment, is_internal_attribute
from jinja2.visitor import NodeTransformer

__all__ = [
    "RenderLimits",
    "RenderLimitError",
    "ChatEnvironment",
    "RenderState",
    "active_render",
    "tojson",
]

#: Internal filter names the template rewriter inserts. Calling them from a
#: template directly is harmless.
ITER_GUARD = "mtok_guard_iter"
SIZE_GUARD = "mtok_guard_size"


@dataclasses.dataclass(frozen=True)
class RenderLimits:
    """Resource limits for one render. ``None`` disables a limit."""

    #: Largest ``range()`` a template may create (jinja2's sandbox uses 100000).
    max_range: Optional[int] = 100_000
    #: Deepest nesting of calls (macros, ``caller()``, recursive loops, globals).
    max_call_depth: Optional[int] = 100
    #: Total ``{% for %}`` iterations in one render.
    max_loop_iterations: Optional[int] = 5_000_000
    #: Longest string/list produced by ``+``, ``~`` or ``*``.
    max_sequence_length: Optional[int] = 100_000_000
    #: Largest integer (in bits) that ``**`` may produce.
    max_int_bits: Optional[int] = 100_000
    #: Wall-clock seconds for one render.
    timeout: Optional[float] = 30.0
    #: Largest ``n`` for the ``lipsum()`` global.
    max_lipsum: int = 1_000


class RenderLimitError(SecurityError):
    """A template exceeded one of the :class:`RenderLimits`."""


class RenderState:
    """Per-render accounting. One is active (via a context variable) while a
    template renders; see :func:`active_render`."""

    __slots__ = (
        "limits", "clock", "depth", "iterations", "deadline", "_ticks",
        "max_depth", "max_iterations", "max_length",
    )

    def __init__(self, limits: RenderLimits, clock: Optional[Callable[[], datetime]] = None):
        self.limits = limits
        self.clock = clock
        self.depth = 0
        self.iterations = 0
        self._ticks = 0
        self.deadline = None if limits.timeout is None else time.monotonic() + limits.timeout
        # unpacked for the hot paths; "no limit" becomes infinity
        self.max_depth = math.inf if limits.max_call_depth is None else limits.max_call_depth
        self.max_iterations = math.inf if limits.max_loop_iterations is None else limits.max_loop_iterations
        self.max_length = math.inf if limits.max_sequence_length is None else limits.max_sequence_length

    def check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise RenderLimitError(
                f"template rendering exceeded the time limit of {self.limits.timeout} s"
            )

    def tick(self) -> None:
        self.iterations += 1
        if self.iterations > self.max_iterations:
            raise RenderLimitError(f"template ran more than {self.max_iterations} loop iterations")
        self._ticks += 1
        if self._ticks >= 64:
            self._ticks = 0
            self.check_time()

    def check_length(self, value: Any) -> Any:
        if isinstance(value, (str, list, tuple)) and len(value) > self.max_length:
            _too_long(value, self.max_length)
        return value


def _too_long(value, cap):
    raise RenderLimitError(
        f"template built a {type(value).__name__} of length {len(value)}, more than the limit of {cap}"
    )


_ACTIVE: contextvars.ContextVar[Optional[RenderState]] = contextvars.ContextVar(
    "mtok_chat_render_state", default=None
)
_DEFAULT_LIMITS = RenderLimits()


def _limits() -> RenderLimits:
    """Limits of the active render; the defaults outside one (jinja2 may
    evaluate constant expressions while compiling)."""
    state = _ACTIVE.get()
    return state.limits if state is not None else _DEFAULT_LIMITS


def _check_result(value):
    """Refuse a string/list longer than the sequence limit (any subclass)."""
    if isinstance(value, (str, list, tuple)):
        cap = _limits().max_sequence_length
        if cap is not None and len(value) > cap:
            _too_long(value, cap)
    return value


def _check_size_args(args, kwargs, what, name=""):
    """Refuse integer arguments (widths, counts) larger than the sequence
    limit. ``what`` is a format string for the message, with ``{}`` for ``name``."""
    cap = _limits().max_sequence_length
    if cap is None:
        return
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > cap:
            raise RenderLimitError(f"{what.format(name)} argument {value} is larger than the limit of {cap}")


class active_render:
    """Context manager that makes a :class:`RenderState` current."""

    def __init__(self, state: RenderState):
        self.state = state
        self._token = None

    def __enter__(self) -> RenderState:
        self._token = _ACTIVE.set(self.state)
        return self.state

    def __exit__(self, *exc) -> None:
        _ACTIVE.reset(self._token)


# ---------------------------------------------------------------------------
# Filters and globals visible to templates
# ---------------------------------------------------------------------------


def tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    """``tojson`` as transformers defines it: plain ``json.dumps`` (no HTML
    escaping, non-ASCII kept), with the usual ``json.dumps`` options."""
    return json.dumps(
        value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
    )


def raise_exception(message):
    """Lets a template reject its input; surfaces as :class:`mtok.TemplateError`."""
    raise jinja2.exceptions.TemplateError(message)


def strftime_now(format):
    """Current local time formatted with ``strftime``. The clock is the one
    given to the active render (tests pin it), else :meth:`datetime.now`."""
    state = _ACTIVE.get()
    clock = state.clock if state is not None and state.clock is not None else datetime.now
    return clock().strftime(format)


class _DictFactory:
    """Stands in for the ``dict`` global: callable and ``fromkeys``, but not
    the ``dict`` type itself (so no ``dict.mro()`` style type access)."""

    def __call__(self, *args, **kwargs):
        return dict(*args, **kwargs)

    def fromkeys(self, *args, **kwargs):
        return dict.fromkeys(*args, **kwargs)

    def __repr__(self):
        return "<dict>"


def _refuse_private_name(name) -> None:
    if isinstance(name, str) and name.startswith("_"):
        raise SecurityError(
            "Chat templates cannot store underscore-prefixed attributes on a namespace,"
            f" but got {name!r}. Please rename the attribute."
        )


class SafeNamespace(jinja2.utils.Namespace):
    """``namespace()`` that refuses underscore-prefixed attribute names."""

    def __init__(*args, **kwargs):  # noqa: N805 - same trick as jinja's Namespace
        self, rest = args[0], args[1:]
        for key in dict(*rest, **kwargs):
            _refuse_private_name(key)
        jinja2.utils.Namespace.__init__(self, *rest, **kwargs)

    def __setitem__(self, name, value):
        _refuse_private_name(name)
        jinja2.utils.Namespace.__setitem__(self, name, value)


def _make_range(*args):
    rng = range(*args)
    cap = _limits().max_range
    if cap is not None and len(rng) > cap:
        raise RenderLimitError(f"range() of {len(rng)} items is larger than the limit of {cap}")
    return rng


def _make_lipsum(real_lipsum):
    def lipsum(n=5, html=True, min=20, max=100):  # noqa: A002 - jinja's names
        cap = _limits().max_lipsum
        if not isinstance(n, int) or n > cap or not isinstance(max, int) or max > 10 * cap:
            raise RenderLimitError(f"lipsum() is limited to {cap} paragraphs")
        return real_lipsum(n=n, html=html, min=min, max=max)

    return lipsum


@jinja2.pass_context
def _guard_iter(context, iterable) -> Iterator[Any]:
    """Wraps the iterable of every ``{% for %}`` loop: counts iterations."""
    state = _ACTIVE.get()
    if state is None:
        return iter(iterable)
    return _counted(iter(iterable), state)


def _counted(iterator, state: RenderState):
    tick = state.tick
    for item in iterator:
        tick()
        yield item


@jinja2.pass_context
def _guard_size(context, value):
    """Wraps every ``~`` concatenation: checks the result length."""
    state = _ACTIVE.get()
    if state is None:
        return _check_result(value)
    return state.check_length(value)


#: Built-in filters whose output size is set by an argument or can grow
#: quickly; they get argument and result checks.
_SIZED_FILTERS = ("center", "indent", "format", "join", "replace", "wordwrap", "truncate")
#: ... of which these take a width that pads the output.
_WIDTH_FILTERS = frozenset({"center", "indent"})
#: str methods whose integer argument is an output width.
_WIDTH_STR_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})


def _check_replace(cap, text, old=None, new=None, count=None, *_ignored) -> None:
    """Refuse a ``replace`` whose result would exceed ``cap``."""
    if not (isinstance(text, str) and isinstance(old, str) and isinstance(new, str)):
        return
    growth = len(new) - len(old)
    if growth <= 0 or len(text) + (len(text) + 1) * growth <= cap:
        return  # cannot exceed the limit whatever the number of matches
    hits = text.count(old) if old else len(text) + 1
    if isinstance(count, int) and count >= 0:
        hits = min(hits, count)
    size = len(text) + hits * growth
    if size > cap:
        raise RenderLimitError(f"replace would build a str of length {size}, more than the limit of {cap}")


def _check_join(cap, separator, items) -> None:
    """Refuse a ``join`` whose result would exceed ``cap``."""
    if not isinstance(separator, str):
        return
    try:
        count = len(items)
    except TypeError:
        return
    size = len(separator) * max(count - 1, 0)
    if size <= cap and isinstance(items, (list, tuple)):
        size += sum(len(item) for item in items if isinstance(item, str))
    if size > cap:
        raise RenderLimitError(f"join would build a str of length >= {size}, more than the limit of {cap}")


def _materialise(items):
    """A list of ``items`` (counted as loop iterations), for sized checks."""
    if isinstance(items, (str, list, tuple, dict)) or not hasattr(items, "__iter__"):
        return items
    state = _ACTIVE.get()
    if state is None:
        return list(items)
    out = []
    for item in items:
        state.tick()
        out.append(item)
    return out


def _size_checked_filter(name, func):
    """Wrap a built-in filter with argument and result size checks."""
    offset = 1 if hasattr(func, "jinja_pass_arg") else 0  # context/eval_ctx/environment first

    @functools.wraps(func)  # keeps jinja's pass_context/pass_eval_context marker
    def checked(*args, **kwargs):
        cap = _limits().max_sequence_length
        if cap is None:
            return func(*args, **kwargs)
        value_args = args[offset:]
        if name in _WIDTH_FILTERS:
            for value in (*value_args[1:], *kwargs.values()):
                if type(value) is int and abs(value) > cap:
                    raise RenderLimitError(f"filter '{name}' width {value} is larger than the limit of {cap}")
        if name == "replace":
            _check_replace(cap, *value_args[:4], *(() if len(value_args) > 3 else (kwargs.get("count"),)))
        elif name == "join" and value_args:
            if not hasattr(value_args[0], "__len__"):
                # materialise generators so that the check can measure them
                value_args = (_materialise(value_args[0]),) + value_args[1:]
                args = args[:offset] + value_args
            _check_join(cap, value_args[1] if len(value_args) > 1 else kwargs.get("d", ""), value_args[0])
        elif name == "format" and value_args and isinstance(value_args[0], str):
            _check_percent_format(value_args[0], kwargs or tuple(value_args[1:]))
        result = func(*args, **kwargs)
        if isinstance(result, (str, list, tuple)) and len(result) > cap:
            _too_long(result, cap)
        return result

    return checked


_BuiltinMethod = type("".join)

# One printf-style conversion: "%%", or "%(key)flags width.precision type".
_PERCENT_SPEC = re.compile(r"%(?:%|(\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?)")


def _check_percent_format(fmt: str, args) -> None:
    """Refuse ``'%99999999999d' % x`` (and ``'%*d' % (huge, x)``) widths
    before formatting."""
    cap = _limits().max_sequence_length
    if cap is None or "%" not in fmt:
        return
    values = args if isinstance(args, tuple) else (args,)
    position = 0  # index of the next positional value
    for match in _PERCENT_SPEC.finditer(fmt):
        if match.group(0) == "%%":
            continue
        key, width, precision = match.groups()
        for part in (width, precision):
            if part == "*":
                star = values[position] if position < len(values) else None
                position += 1
                if type(star) is int and abs(star) > cap:
                    raise RenderLimitError(f"format width {star} is larger than the limit of {cap}")
            elif part is not None and (len(part) > 18 or int(part) > cap):
                raise RenderLimitError(f"format width {part} is larger than the limit of {cap}")
        if key is None:
            position += 1


class GenerationExtension(jinja2.ext.Extension):
    """``{% generation %}...{% endgeneration %}`` marks assistant text in
    transformers (for assistant-token masks). Here it renders its body."""

    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller):
        return caller()


class _GuardInserter(NodeTransformer):
    """Wraps loop iterables and ``~`` results in the guard filters."""

    def visit_For(self, node):
        node = self.generic_visit(node)
        node.iter = jinja2.nodes.Filter(
            node.iter, ITER_GUARD, [], [], None, None, lineno=node.iter.lineno
        )
        return node

    def visit_Concat(self, node):
        node = self.generic_visit(node)
        return jinja2.nodes.Filter(node, SIZE_GUARD, [], [], None, None, lineno=node.lineno)


def _sequence_times(left, right):
    """Length of ``left * right`` when it builds a sequence, else None."""
    if isinstance(left, (str, list, tuple)) and isinstance(right, int):
        return len(left) * max(right, 0)
    if isinstance(right, (str, list, tuple)) and isinstance(left, int):
        return len(right) * max(left, 0)
    return None


def _power_bits(base, exp) -> float:
    """Rough bit length of ``base ** exp`` for ints (0 when small/negative exp)."""
    if not (isinstance(base, int) and isinstance(exp, int)) or exp <= 0:
        return 0.0
    magnitude = abs(base)
    if magnitude <= 1:
        return 0.0
    return exp * math.log2(magnitude)


class ChatEnvironment(ImmutableSandboxedEnvironment):
    """The environment chat templates are compiled in (see module docstring)."""

    intercepted_binops = frozenset({"+", "*", "**", "%"})

    def __init__(self):
        super().__init__(
            trim_blocks=True,
            lstrip_blocks=True,
            extensions=[GenerationExtension, jinja2.ext.loopcontrols],
        )
        self.filters["tojson"] = tojson
        self.filters[ITER_GUARD] = _guard_iter
        self.filters[SIZE_GUARD] = _guard_size
        self.globals["raise_exception"] = raise_exception
        self.globals["strftime_now"] = strftime_now
        self.globals["dict"] = _DictFactory()
        self.globals["namespace"] = SafeNamespace
        self.globals["range"] = _make_range
        self.globals["lipsum"] = _make_lipsum(self.globals["lipsum"])
        for name in _SIZED_FILTERS:
            self.filters[name] = _size_checked_filter(name, self.filters[name])

    # -- compilation ---------------------------------------------------------

    def compile_chat_template(self, source: str, filename: str) -> jinja2.Template:
        """Parse ``source``, insert the guards and compile it. Syntax errors
        propagate as :class:`jinja2.TemplateSyntaxError` (with ``lineno``)."""
        tree = self.parse(source, filename=filename)
        tree = _GuardInserter().visit(tree)
        tree.set_environment(self)
        code = self.compile(tree, filename=filename)
        return self.template_class.from_code(self, code, self.make_globals(None), None)

    # -- sandbox hooks -------------------------------------------------------

    def unsafe_undefined(self, obj, attribute):
        if isinstance(attribute, str) and (
            attribute.startswith("_") or is_internal_attribute(obj, attribute)
        ):
            raise SecurityError(
                f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe."
            )
        # Methods that mutate lists/dicts/sets: like jinja2 (and transformers),
        # fail only when the value is used, e.g. called.
        return super().unsafe_undefined(obj, attribute)

    def call(self, context, obj, /, *args, **kwargs):
        state = _ACTIVE.get()
        if state is None:
            return ImmutableSandboxedEnvironment.call(self, context, obj, *args, **kwargs)
        if state.depth >= state.max_depth:
            raise RenderLimitError(
                f"template calls nested deeper than {state.max_depth} levels (runaway recursion?)"
            )
        if state.deadline is not None and time.monotonic() > state.deadline:
            state.check_time()
        if type(obj) is _BuiltinMethod and isinstance(obj.__self__, str):
            # 'x'.center(10**10), .ljust, .zfill, .expandtabs, .replace, .join ...
            owner = obj.__self__
            method = obj.__name__
            if method in _WIDTH_STR_METHODS:
                _check_size_args(args, kwargs, "str.{}()", method)
            elif method == "replace":
                _check_replace(state.max_length, owner, *args[:3], *(() if len(args) > 2 else (kwargs.get("count"),)))
            elif method == "join" and args:
                args = (_materialise(args[0]),) + args[1:]
                _check_join(state.max_length, owner, args[0])
        if not self.is_safe_callable(obj):  # as SandboxedEnvironment.call
            raise SecurityError(f"{obj!r} is not safely callable")
        state.depth += 1
        try:
            result = context.call(obj, *args, **kwargs)
        finally:
            state.depth -= 1
        if isinstance(result, (str, list, tuple)) and len(result) > state.max_length:
            _too_long(result, state.max_length)
        return result

    def call_binop(self, context, operator_name, left, right):
        state = _ACTIVE.get()
        if operator_name == "+":
            if (
                state is not None
                and isinstance(left, (str, list, tuple))
                and isinstance(right, (str, list, tuple))
                and len(left) + len(right) > state.max_length
            ):
                raise RenderLimitError(
                    f"template '+' would build a sequence of length {len(left) + len(right)},"
                    f" more than the limit of {state.max_length}"
                )
            return left + right
        if state is not None:
            limits = state.limits
            if operator_name == "*" and limits.max_sequence_length is not None:
                size = _sequence_times(left, right)
                if size is not None and size > limits.max_sequence_length:
                    raise RenderLimitError(
                        f"template repetition would build a sequence of length {size},"
                        f" more than the limit of {limits.max_sequence_length}"
                    )
            elif operator_name == "%" and isinstance(left, str):
                _check_percent_format(left, right)
            elif operator_name == "**" and limits.max_int_bits is not None:
                if _power_bits(left, right) > limits.max_int_bits:
                    raise RenderLimitError(
                        f"template power {left!r} ** {right!r} exceeds {limits.max_int_bits} bits"
                    )
        return self.binop_table[operator_name](left, right)

