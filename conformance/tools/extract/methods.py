"""The ``mount_*`` calls of one NekroAgent plugin file, and the functions they mount.

What NekroAgent 2.4.0 shows the model for a sandbox method (``NekroPlugin.
render_sandbox_methods_prompt``): the *function's* ``__name__`` (plus a marker for agent and
multimodal-agent methods) and then ``func.__doc__.strip()``: the whole docstring with its
surrounding white space removed and its inner indentation kept as written (NekroAgent needs
Python < 3.13, where the compiler does not dedent docstrings). A method whose ``__doc__`` is
empty or missing is skipped (NekroAgent logs a warning). The ``name=`` and ``description=``
arguments of ``mount_sandbox_method`` only reach the WebUI.

Both spellings of a mount are read: the decorator ``@plugin.mount_sandbox_method(...)`` and
the call ``plugin.mount_sandbox_method(...)(func)``. ``mount_collect_methods`` (a function
that picks, per conversation and at run time, which mounted methods are shown) is recorded so
that the extraction can say the manifest lists an upper bound.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from conformance.tools.extract.reader import Reader, Unresolved
from conformance.tools.extract.signature import parameters_schema
from reference_impl.problems import Problem, Severity, SourceLocation

KINDS = {"TOOL": "tool", "AGENT": "agent", "BEHAVIOR": "behavior", "MULTIMODAL_AGENT": "multimodal_agent"}
SANDBOX, INJECT, COLLECT = "mount_sandbox_method", "mount_prompt_inject_method", "mount_collect_methods"
MOUNTS = (SANDBOX, INJECT, COLLECT)


@dataclass(frozen=True, slots=True, kw_only=True)
class Function:
    """A function a mount can name: its raw docstring (``__doc__``), parameters and ``def`` line."""

    name: str
    doc: str | None  # exactly what ``__doc__`` holds at run time on Python 3.11/3.12; None when it has none
    parameters: dict[str, Any] = field(default_factory=dict)
    source: SourceLocation
    returns: str | None = None  # the string literal the body returns, when the body is only that (and a docstring)


def returned_literal(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The string a function always returns, when its body is ``return "<literal>"`` alone (after a docstring).

    A prompt injection written so injects the same text every run: ``pas budget`` counts it.
    Adjacent literals (``("a" "b")``) are one constant to Python, so they count too.
    """
    body = function.body[1:] if ast.get_docstring(function, clean=False) is not None else function.body
    if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[0].value.value
    return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Mount:
    """One ``<target>.mount_*(...)``: ``what`` is the mount name, ``function`` the mounted name.

    ``kind``, ``label`` and ``display_name`` are set for sandbox methods only; ``function`` is
    None when the mounted value is not a plain name (a lambda, a call).
    """

    what: str
    target: str
    function: str | None
    kind: str | None = None
    label: str | None = None  # description= : shown in the WebUI only
    display_name: str | None = None  # name= : shown in the WebUI only
    source: SourceLocation
    line: int  # for ordering with the file's imports


def _warning(code: str, message: str, source: SourceLocation) -> Problem:
    return Problem(code=code, message=message, source=source, severity=Severity.WARNING)


def rendered_doc(raw: str | None) -> str | None:
    """What NekroAgent shows under the method name: ``__doc__.strip()``; None when it skips the method."""
    return raw.strip() if raw else None


def functions(reader: Reader, tree: ast.Module) -> dict[str, Function]:
    """Every function defined at module level (or in a top-level ``if``/``try``), by name; the last wins."""
    found: dict[str, Function] = {}
    for node in _top_level(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found[node.name] = Function(name=node.name, doc=ast.get_docstring(node, clean=False),
                                        parameters=parameters_schema(node), source=reader.where(node),
                                        returns=returned_literal(node))
    return found


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            for block in (getattr(node, "body", []), getattr(node, "orelse", []), getattr(node, "finalbody", [])):
                yield from _top_level(block)
            for handler in getattr(node, "handlers", []):
                yield from _top_level(handler.body)


def _mount_call(node: ast.AST) -> tuple[str, str] | None:
    """(mount name, target variable) when ``node`` is ``<name>.mount_*(...)``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MOUNTS \
            and isinstance(node.func.value, ast.Name):
        return node.func.attr, node.func.value.id
    return None


def _arguments(call: ast.Call, names: tuple[str, ...]) -> dict[str, ast.expr]:
    found = dict(zip(names, call.args))
    found.update({k.arg: k.value for k in call.keywords if k.arg})
    return found


def mounts(reader: Reader, tree: ast.Module) -> tuple[list[Mount], list[Problem]]:
    """Every mount in the file, decorator or call form, in source order, with the problems met."""
    found: list[Mount] = []
    problems: list[Problem] = []
    for node in ast.walk(tree):
        pairs: list[tuple[ast.Call, str | None, ast.AST]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pairs = [(d, node.name, node) for d in node.decorator_list if isinstance(d, ast.Call) and _mount_call(d)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and _mount_call(node.func):  # plugin.mount_...(...)(func)
            mounted = node.args[0] if node.args else None
            pairs = [(node.func, mounted.id if isinstance(mounted, ast.Name) else None, node)]
            if not isinstance(mounted, ast.Name):
                problems.append(_warning("unresolved-method", "only a function named here can be read (not a lambda "
                                         "or a call); this mount is left out", reader.where(node)))
                continue
        for call, function, anchor in pairs:
            mount, problem = _mount(reader, call, function, anchor)
            problems += [problem] if problem else []
            found += [mount] if mount else []
    return sorted(found, key=lambda m: (m.line, m.source.column or 0)), problems


def _mount(reader: Reader, call: ast.Call, function: str | None, anchor: ast.AST) -> tuple[Mount | None, Problem | None]:
    what, target = _mount_call(call) or ("", "")
    where, line = reader.where(call), getattr(anchor, "lineno", call.lineno)
    if what != SANDBOX:
        return Mount(what=what, target=target, function=function, source=where, line=line), None
    arguments = _arguments(call, ("method_type", "name", "description"))
    kind_node = arguments.get("method_type")
    member = kind_node.attr if isinstance(kind_node, ast.Attribute) else None
    if member not in KINDS:
        return None, _warning("unresolved-method", f"method {function}: its kind must be written as SandboxMethodType."
                              "TOOL, AGENT, BEHAVIOR or MULTIMODAL_AGENT; the method is left out",
                              reader.where(kind_node or call))
    texts, problem = {}, None
    for key in ("name", "description"):
        node = arguments.get(key)
        try:
            value = reader.value(node) if node is not None else None
        except Unresolved as unresolved:  # a WebUI label only, so a note is enough
            value, problem = None, Problem(code="unresolved-field", severity=Severity.INFO,
                                           source=reader.where(unresolved.node),
                                           message=f"method {function} {key}=: {unresolved.why}; "
                                           "it is a WebUI label only (the model sees the docstring) and is left out")
        texts[key] = value.strip() if isinstance(value, str) and value.strip() else None
    display = texts["name"] if texts["name"] != function else None
    return Mount(what=what, target=target, function=function, kind=KINDS[member], label=texts["description"],
                 display_name=display, source=where, line=line), problem
