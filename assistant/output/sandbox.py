"""The sandbox drafts render in: plain data only, a template folder that cannot be left, and bounded
work.

Templates are data, not code, even the moderator's own (they are shared and copied). Jinja's
``SandboxedEnvironment`` already refuses Python internals; this one also refuses attributes of
anything but plain data, and bounds what a render may cost: loops (``range`` counts every item it
hands out, across the whole render), numbers handed to calls and filters, texts built by ``*``,
``%``, ``+``, ``~``, calls and filters (checked before they are built), the output's size, and (in
the main thread) the render's time. Each limit is a :class:`TemplateLimit`, a template error the
drafts report in one line.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta
from datetime import time as time_of_day
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn

from jinja2 import (
    Environment,
    FileSystemLoader,
    Template,
    TemplateError,
    TemplateNotFound,
    Undefined,
    nodes,
)
from jinja2.compiler import CodeGenerator, Frame
from jinja2.environment import TemplateModule
from jinja2.exceptions import SecurityError, TemplateRuntimeError
from jinja2.loaders import split_template_path
from jinja2.runtime import LoopContext, Macro, markup_join, str_join
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import Cycler, Joiner, Namespace
from markupsafe import Markup

# Objects a template may read attributes of: plain data, and Jinja's own helpers. Anything else (a
# path, a module, a function's globals) is refused, whatever the context ends up holding.
_SAFE_TYPES = (
    str,
    int,
    float,
    bool,
    type(None),
    dict,
    list,
    tuple,
    Enum,
    date,
    datetime,
    time_of_day,
    timedelta,
    Markup,
    Undefined,
    LoopContext,
    Cycler,
    Joiner,
    Namespace,
    Macro,
    TemplateModule,
)

MAX_TEXT = 2**20  # characters (or items) one value may hold: "x" * 10**10 is refused, not allocated
MAX_OUTPUT = 2**20  # characters a whole draft may hold
MAX_TEMPLATE_BYTES = 2**20  # a template file (or one it includes)
MAX_STEPS = 1_000_000  # loop items, calls, filters and lookups one render may take
MAX_SECONDS = 5.0  # a render's time, where a timer can interrupt it (the main thread)

_WIDTH = re.compile(r"%[-#0 +]*(\d+)|\{[^{}]*?:[^{}]*?(\d+)")


class TemplateLimit(SecurityError):
    """A template asked for more work or text than a draft may take."""


class FolderLoader(FileSystemLoader):
    """A moderator's template folder: ``..`` is refused by Jinja, and so is a file whose real path
    (after symlinks) lies outside the folder."""

    # Jinja's signature
    def get_source(self, environment: Environment, template: str):  # noqa: ANN201
        # before reading: only a regular file (a FIFO would block), and not huge
        for root in self.searchpath:
            candidate = Path(root, *split_template_path(template))
            if candidate.exists():
                if not candidate.is_file():
                    raise TemplateNotFound(template)
                if candidate.stat().st_size > MAX_TEMPLATE_BYTES:
                    raise TemplateLimit(
                        f"template file {template} is larger than {MAX_TEMPLATE_BYTES:,} bytes"
                    )
                break
        source, filename, uptodate = super().get_source(environment, template)
        real = Path(filename).resolve()
        if not any(real.is_relative_to(Path(root).resolve()) for root in self.searchpath):
            raise TemplateNotFound(template)
        return source, filename, uptodate


class _Budget:
    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps = 0


_BUDGET: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar(
    "votal_template_budget", default=None
)


def _step(count: int = 1) -> None:
    budget = _BUDGET.get()
    if budget is None:
        return
    budget.steps += count
    if budget.steps > MAX_STEPS:
        raise TemplateLimit(
            f"the template took more than {MAX_STEPS:,} steps (loop items, calls, lookups)"
        )


def _check_number(value: Any) -> None:
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > MAX_TEXT:
        raise TemplateLimit(
            f"the template passed {value:.0f} to a call or filter (at most {MAX_TEXT:,})"
        )


def _check_length(length: int) -> None:
    if length > MAX_TEXT:
        raise TemplateLimit(
            f"the template built a value of {length:,} characters (at most {MAX_TEXT:,})"
        )


def _check_size(value: Any) -> Any:
    if isinstance(value, str | list | tuple | dict):
        _check_length(len(value))
    return value


def _check_format(text: Any) -> None:
    if isinstance(text, str):
        for found in _WIDTH.finditer(text):
            width = found.group(1) or found.group(2)
            if len(width) > 6 or int(width) > MAX_TEXT:
                raise TemplateLimit(
                    f"the template asked for a field {width} characters wide (at most {MAX_TEXT:,})"
                )


def _bounded_range(*args: int) -> Iterator[int]:
    for value in args:
        _check_number(value)
    for item in range(*args):
        _step()
        yield item


def _bounded_filter(name: str, function: Callable) -> Callable:
    @functools.wraps(function)  # keeps Jinja's pass_context / pass_environment marks
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _step()
        for value in (*args, *kwargs.values()):
            _check_number(value)
        values = [
            a
            for a in args
            if not isinstance(a, Environment | Template) and not hasattr(a, "environment")
        ]
        if name == "replace" and len(values) >= 3:
            text, old, new = (str(v) for v in values[:3])
            grows = (len(text) + 1) if not old else text.count(old)
            _check_length(len(text) + grows * len(new))
        if name == "format" and values:
            _check_format(values[0])
        return _check_size(function(*args, **kwargs))

    return bounded


class _BoundedJoins(CodeGenerator):
    """Compiles ``a ~ b`` to a join that checks the joined length first: a chain of ``{% set s = s ~
    s %}`` doubles a text with no call, filter or lookup to stop it."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.bounded_join((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("), context.eval_ctx.autoescape)")


class DraftSandbox(SandboxedEnvironment):
    """Jinja's sandbox (no underscore attributes, no unsafe calls) restricted further to plain data,
    with the work and text of a render bounded (see the module's docstring)."""

    intercepted_binops = frozenset(["*", "**", "%", "+"])
    code_generator_class = _BoundedJoins

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.globals["range"] = _bounded_range
        self.globals.pop("lipsum", None)  # a text generator whose size no one needs in a draft
        self.filters = {name: _bounded_filter(name, f) for name, f in self.filters.items()}

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        return isinstance(obj, _SAFE_TYPES) and super().is_safe_attribute(obj, attr, value)

    def getattr(self, obj: Any, attribute: str) -> Any:
        _step()
        return _check_size(super().getattr(obj, attribute))

    def getitem(self, obj: Any, argument: Any) -> Any:
        _step()
        return _check_size(super().getitem(obj, argument))

    # Jinja's signature
    def call(__self, __context, __obj, *args: Any, **kwargs: Any) -> Any:  # noqa: ANN001, N805
        _step()
        for value in (*args, *kwargs.values()):
            _check_number(value)
        method = inspect.unwrap(__obj)  # the sandbox hands out str.format wrapped
        if getattr(method, "__name__", None) in ("format", "format_map"):
            _check_format(getattr(method, "__self__", None))
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    # Jinja's signature
    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:  # noqa: ANN001
        _step()
        if operator == "**" and isinstance(right, int | float) and abs(right) > 64:
            raise TemplateLimit("exponent too large in a template (at most 64)")
        if operator == "*" and isinstance(left, int) and isinstance(right, str | list | tuple):
            left, right = right, left
        if operator == "*" and isinstance(left, str | list | tuple) and isinstance(right, int):
            _check_length(len(left) * right)
        if operator == "%":
            _check_format(left)
        if (
            operator == "+"
            and isinstance(left, str | list | tuple)
            and isinstance(right, str | list | tuple)
        ):
            _check_length(len(left) + len(right))
        return _check_size(super().call_binop(context, operator, left, right))

    def bounded_join(self, parts: tuple[Any, ...], autoescape: bool) -> str:
        """``a ~ b ~ ...`` (see :class:`_BoundedJoins`), refused before joining more than a value
        may hold."""
        _step()
        texts = [part if isinstance(part, str) else str(part) for part in parts]
        _check_length(sum(map(len, texts)))
        return markup_join(parts) if autoescape else str_join(texts)

    def handle_exception(self, source: str | None = None) -> NoReturn:
        """Any failure inside a template (``{{ 1 / 0 }}``, calling a non-function) is a template
        error, which the drafts report in one line, never a traceback."""
        failure = sys.exc_info()[1]
        if isinstance(failure, _TimeUp):
            raise TemplateLimit(f"the template ran longer than {MAX_SECONDS:g} seconds") from None
        if failure is not None and not isinstance(failure, TemplateError):
            raise TemplateRuntimeError(f"{type(failure).__name__}: {failure}") from None
        super().handle_exception(source)
        raise AssertionError("unreachable: Jinja2's handle_exception always raises")


def render_bounded(template: Template, variables: dict[str, Any]) -> str:
    """Render within the sandbox's limits; over any of them raises :class:`TemplateLimit`."""
    token = _BUDGET.set(_Budget())
    try:
        with _time_limit():
            parts: list[str] = []
            size = 0
            for part in template.generate(**variables):
                size += len(part)
                if size > MAX_OUTPUT:
                    raise TemplateLimit(f"the template wrote more than {MAX_OUTPUT:,} characters")
                parts.append(part)
            return "".join(parts)
    finally:
        _BUDGET.reset(token)


class _TimeUp(Exception):
    pass


class _time_limit:  # noqa: N801 (a context manager, read as a phrase)
    """Interrupt the render after MAX_SECONDS with SIGALRM, where one can be set (the main thread on
    Unix): loops over data the hooks never see ({% for a in text %}{% for b in text %}) end too."""

    def __enter__(self) -> None:
        self.armed = (
            hasattr(signal, "setitimer")
            and threading.current_thread() is threading.main_thread()
            and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        )
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, self._expire)
            signal.setitimer(signal.ITIMER_REAL, MAX_SECONDS)

    @staticmethod
    def _expire(signum: int, frame: Any) -> None:  # noqa: ARG004
        raise _TimeUp

    def __exit__(self, kind: type | None, value: BaseException | None, traceback: Any) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        if isinstance(value, _TimeUp):
            raise TemplateLimit(f"the template ran longer than {MAX_SECONDS:g} seconds") from None
