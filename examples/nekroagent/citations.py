"""Finding a place in NekroAgent's installed source by name, so that a citation's file:line is never stale.

A citation names a place, never copies NekroAgent's code (its licence has custom terms):

- ``{file: F, def: NAME}``: the lines of a function or class (``Class.method`` and
  ``outer.inner`` for nested ones), decorators included;
- ``{file: F, def: NAME, at: first}`` / ``at: last``: its first or last line;
- ``{file: F, def: NAME, call: FUNC}``: the first line inside it that calls ``FUNC``;
- ``{file: F, def: NAME, assign: NAME}``: the first line inside it that assigns ``NAME`` (or ``self.NAME``);
- ``{file: F, def: NAME, attr: NAME}``: the first line inside it that reads ``x.NAME``;
- ``{file: F, assign: NAME}`` without ``def``: a module-level assignment;
- ``{file: F, text: S}``: the first line containing ``S`` (for templates; ``S`` is output text).

``F`` is relative to NekroAgent's site-packages. :func:`locate` gives ``"F:12"`` or ``"F:12-20"``
and raises :class:`CitationError` when the place does not exist in that release.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any


class CitationError(Exception):
    """A cited place does not exist in the installed source."""


def _find_def(tree: ast.AST, dotted: str) -> ast.AST:
    node: ast.AST = tree
    for part in dotted.split("."):
        found = [n for n in ast.iter_child_nodes(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and n.name == part]
        if not found:
            raise CitationError(f"no definition {dotted!r}")
        node = found[0]
    return node


def _start(node: Any) -> int:
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def _calls(node: ast.AST, name: str) -> Iterator[int]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if called == name:
                yield sub.lineno


def _assigns(node: ast.AST, name: str) -> Iterator[int]:
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Assign, ast.AnnAssign)):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
            if any((isinstance(t, ast.Name) and t.id == name) or (isinstance(t, ast.Attribute) and t.attr == name)
                   for t in targets):
                yield sub.lineno


def _attrs(node: ast.AST, name: str) -> Iterator[int]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == name:
            yield sub.lineno


def _first(lines: Iterator[int], what: str) -> int:
    found = sorted(lines)
    if not found:
        raise CitationError(f"nothing matches {what}")
    return found[0]


def _python_place(text: str, cite: Mapping[str, Any]) -> tuple[int, int]:
    tree = ast.parse(text)
    if "def" not in cite:
        if "assign" in cite:
            top = ast.Module(body=[n for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))], type_ignores=[])
            line = _first(_assigns(top, cite["assign"]), f"a module-level assignment of {cite['assign']!r}")
            return line, line
        raise CitationError("a Python citation needs def or assign")
    node: Any = _find_def(tree, cite["def"])
    for key, finder in (("call", _calls), ("assign", _assigns), ("attr", _attrs)):
        if key in cite:
            line = _first(finder(node, cite[key]), f"{key} {cite[key]!r} in {cite['def']}")
            return line, line
    at = cite.get("at", "range")
    start, end = _start(node), node.end_lineno or node.lineno
    return {"first": (start, start), "last": (end, end)}.get(at, (start, end))


def locate(site_packages: Path, cite: Mapping[str, Any]) -> str:
    """``"file:line"`` or ``"file:start-end"`` of a citation in the installed source; raises CitationError."""
    path = site_packages / cite["file"]
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CitationError(f"{cite['file']}: {error.strerror or error}") from None
    if "text" in cite:
        numbers = [i for i, line in enumerate(text.splitlines(), 1) if cite["text"] in line]
        if not numbers:
            raise CitationError(f"{cite['file']}: no line contains {cite['text']!r}")
        start = end = numbers[0]
    else:
        try:
            start, end = _python_place(text, cite)
        except CitationError as error:
            raise CitationError(f"{cite['file']}: {error}") from None
    return f"{cite['file']}:{start}" if start == end else f"{cite['file']}:{start}-{end}"
