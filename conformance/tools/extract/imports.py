"""Which imports Python runs while NekroAgent imports a plugin, read statically.

NekroAgent loads a plugin with ``importlib.import_module`` (``services/plugin/collector.py:
_load_plugin_module``), so every statement that runs at import time runs: the module's
top-level statements and, inside them, the blocks of ``if``, ``try`` (its handlers, ``else``
and ``finally`` too), ``with``, ``for``, ``while`` and class bodies. Function bodies do not
run. An import in any of those places loads its module, and so does a call of
``importlib.import_module`` (under any alias) or ``__import__`` with a literal module name,
relative (``".tools"``) or absolute. Both branches of an ``if`` count, and a ``try``'s
handlers too, as the extraction cannot tell which one runs; a block that never runs is
left out: ``if TYPE_CHECKING:`` (any spelling of ``typing.TYPE_CHECKING``) and ``if False:``.
A dynamic import whose module name is built at run time cannot be followed: its location is
kept so that a file it may load is not called unused.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

_NESTED_BLOCKS = ("body", "orelse", "finalbody")


@dataclass(frozen=True, slots=True)
class Dynamic:
    """One ``import_module(...)`` / ``__import__(...)`` call: where, and the module when it is a literal."""

    line: int
    column: int
    level: int = 0
    module: str | None = None  # None: the name is built at run time


def _never_runs(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` / ``if typing.TYPE_CHECKING:`` / ``if False:``: a block Python never runs."""
    if isinstance(test, ast.Constant):
        return not test.value
    name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
    return name == "TYPE_CHECKING"


def import_time(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body`` that can run while the module is imported, nested ones included, in order."""
    for node in body:
        yield node
        if isinstance(node, ast.If) and _never_runs(node.test):
            yield from import_time(node.orelse)
        elif isinstance(node, (ast.If, ast.Try, ast.TryStar, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While,
                               ast.ClassDef)):
            for block in _NESTED_BLOCKS:
                yield from import_time(getattr(node, block, []))
            for handler in getattr(node, "handlers", []):
                yield from import_time(handler.body)


def _expressions(node: ast.AST) -> Iterator[ast.AST]:
    """The expressions a statement evaluates itself: not its nested statements, functions or lambdas."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.Lambda, ast.excepthandler)):
            continue
        yield child
        yield from _expressions(child)


class DynamicImports:
    """Finds ``import_module`` / ``__import__`` calls, knowing the names the file gave them."""

    def __init__(self) -> None:
        self.modules = {"importlib"}  # names bound to the importlib module
        self.functions = {"__import__"}  # names bound to importlib.import_module (and __import__)

    def learn(self, node: ast.Import | ast.ImportFrom) -> None:
        """Remember an ``import importlib [as x]`` or ``from importlib import import_module [as f]``."""
        for alias in node.names:
            if isinstance(node, ast.Import) and alias.name == "importlib":
                self.modules.add(alias.asname or "importlib")
            elif isinstance(node, ast.ImportFrom) and node.module == "importlib" and alias.name == "import_module":
                self.functions.add(alias.asname or alias.name)

    def _is_import_call(self, call: ast.Call) -> bool:
        func = call.func
        if isinstance(func, ast.Name):
            return func.id in self.functions
        return (isinstance(func, ast.Attribute) and func.attr == "import_module" and isinstance(func.value, ast.Name)
                and func.value.id in self.modules)

    def find(self, statement: ast.stmt) -> Iterator[Dynamic]:
        """The dynamic imports a statement makes, with their literal module names when they have one."""
        for node in _expressions(statement):
            if not (isinstance(node, ast.Call) and self._is_import_call(node)):
                continue
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value.strip("."):
                name = first.value
                yield Dynamic(node.lineno, node.col_offset, len(name) - len(name.lstrip(".")), name.lstrip("."))
            else:
                yield Dynamic(node.lineno, node.col_offset)
