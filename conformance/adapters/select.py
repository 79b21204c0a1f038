"""Turning an ``--impl`` value into an adapter.

Accepted forms:

- ``reference`` — the reference implementation, in-process; ``reference?OPTIONS`` declares the
  disclosure options ``OPTIONS`` (``reference?state_scope=instance,order=catalogue``: the form
  ``pas serve-reference --disclosure`` takes), so that every combination can be run;
- ``python:package.module:factory`` — ``factory()`` returns a Scheduler (``:factory`` may be
  left out and defaults to ``create``; a dotted ``Class.method`` path works too). The
  current directory is importable, as with ``python -m``;
- ``cmd:COMMAND ARGS`` — start ``COMMAND ARGS`` (split as a POSIX shell splits words, but
  run without a shell) and speak the JSON-lines stdio protocol to it.
"""

from __future__ import annotations

import importlib
import os
import shlex
import sys
from collections.abc import Callable
from typing import Any

from conformance.adapters.implementation import DEFAULT_STEP_TIMEOUT, Adapter
from reference_impl.disclosure_options import OPTION_NAMES, Options
from reference_impl.errors import MalformedDocument, PasError
from reference_impl.problems import Problem

FORMS = "'reference', 'reference?OPTIONS', 'python:package.module:factory' or 'cmd:COMMAND ARGS'"


class BadImplementation(PasError, ValueError):
    """An ``--impl`` value that names no usable implementation (a usage error).

    ``problems`` is set when a ``python:`` implementation was found but cannot be driven: each
    says where in the user's code, and what the member must look like.
    """

    def __init__(self, *, spec: str, reason: str, problems: tuple[Problem, ...] = ()) -> None:
        self.spec = spec
        self.reason = reason
        self.problems = problems
        super().__init__(f"--impl {spec!r}: {reason}")


def _factory(spec: str, target: str) -> Callable[[], Any]:
    module_name, _, attribute = target.partition(":")
    attribute = attribute or "create"
    if not module_name or not all(part.isidentifier() for part in module_name.split(".") + attribute.split(".")):
        raise BadImplementation(spec=spec, reason=f"expected {FORMS}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        value: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and (module_name + ".").startswith(error.name + "."):
            raise BadImplementation(spec=spec, reason=f"no module named {error.name!r} (is it on PYTHONPATH?)") from None
        raise BadImplementation(spec=spec, reason=f"importing {module_name} failed: {error}") from None
    except (Exception, SystemExit) as error:  # noqa: BLE001 - their module's import-time crash is a usage error here
        raise BadImplementation(spec=spec, reason=f"importing {module_name} failed: {type(error).__name__}: {error}") from None
    for part in attribute.split("."):
        if not hasattr(value, part):
            raise BadImplementation(spec=spec, reason=f"{module_name} has no attribute {attribute!r}")
        value = getattr(value, part)
    if not callable(value):
        raise BadImplementation(spec=spec, reason=f"{module_name}:{attribute} is not callable")
    return value


def _options(spec: str, text: str) -> Options:
    """The disclosure options of ``reference?OPTIONS``; raises BadImplementation naming the bad one."""
    try:
        return Options.from_text(text)
    except MalformedDocument as error:
        raise BadImplementation(spec=spec, reason=f"disclosure option {error}; write "
                                f"reference?state_scope=instance,order=catalogue (options: {', '.join(OPTION_NAMES)})") from None


def _python(spec: str, target: str) -> Adapter:
    """The in-process adapter of a ``python:`` implementation, made once and checked before anything runs."""
    from conformance.adapters.inprocess import InProcessAdapter
    from conformance.adapters.interface import UnusableImplementation

    adapter = InProcessAdapter(_factory(spec, target), name=target)
    try:
        adapter.check()
    except UnusableImplementation as error:
        raise BadImplementation(spec=spec, reason=str(error), problems=error.problems) from None
    return adapter


def _stdio(spec: str, command: str, timeout: float, check_messages: bool, start_early: bool,
           spec_version: str | None) -> Adapter:
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise BadImplementation(spec=spec, reason=f"cannot split the command: {error}") from None
    if not argv:
        raise BadImplementation(spec=spec, reason="the command is empty; write cmd:PROGRAM ARGS")
    try:
        from conformance.adapters.stdio import StdioAdapter
    except ImportError as error:
        raise BadImplementation(spec=spec, reason=f"the stdio adapter is not available: {error}") from None
    adapter = StdioAdapter(argv, timeout=timeout, check_messages=check_messages, spec_version=spec_version)
    if start_early:
        adapter.begin()
    return adapter


def adapter_for(spec: str, *, timeout: float = DEFAULT_STEP_TIMEOUT, check_messages: bool = False,
                start_early: bool = False, spec_version: str | None = None) -> Adapter:
    """The adapter for an ``--impl`` value; raises BadImplementation when it names nothing usable.

    A ``python:`` implementation is made at once and checked (its factory, members and
    signatures): what is wrong is said here, once, not in every scenario.

    ``timeout`` (seconds per step) and ``check_messages`` (schema-check every wire message)
    apply to ``cmd:`` implementations only: in-process calls are not timed out. With
    ``start_early`` a ``cmd:`` implementation is started and greeted at once, so that it starts
    up while the caller loads the suite; the caller must then close the adapter on every path.
    ``spec_version`` is what a ``cmd:`` implementation's hello names (default: spec/VERSION).
    """
    from conformance.adapters.inprocess import reference_adapter

    kind, colon, target = spec.partition(":")
    if spec == "reference":
        return reference_adapter()
    if spec.startswith("reference?"):
        return reference_adapter(_options(spec, spec.removeprefix("reference?")))
    if colon and kind == "python":
        return _python(spec, target.strip())
    if colon and kind == "cmd":
        return _stdio(spec, target, timeout, check_messages, start_early, spec_version)
    raise BadImplementation(spec=spec, reason=f"expected {FORMS}")
