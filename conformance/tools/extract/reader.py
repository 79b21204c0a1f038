"""Reading one parsed NekroAgent plugin file: constant values, imports, and where nodes are.

The imports recorded are every one Python runs while the module is imported (see
:mod:`conformance.tools.extract.imports`): top-level ones, those inside ``if``/``try``/``with``
blocks, and ``importlib.import_module``/``__import__`` calls with a literal name.

A value is read only when it is written literally: string, boolean, number and ``None``
constants, lists of them, implicit concatenation, ``+`` between strings, f-strings without
placeholders, and names bound once at module level to such values. Anything else raises
:class:`Unresolved` with the reason and the node where the value is built.
"""

from __future__ import annotations

import ast
from typing import Any, TypeGuard

from conformance.tools.extract.imports import DynamicImports, import_time
from reference_impl.problems import SourceLocation


class Unresolved(Exception):
    """A value that only exists at run time: why, and the node where it is built."""

    def __init__(self, why: str, node: ast.AST) -> None:
        super().__init__(why)
        self.why = why
        self.node = node


class Reader:
    """One parsed file: its module-level constants and the aliases it gives NekroAgent names."""

    def __init__(self, tree: ast.Module, text: str, path: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.constants: dict[str, ast.expr | None] = {}  # None: bound more than once, or not by '='
        self.imports: dict[str, tuple[int, str, str]] = {}
        self.import_lines: list[tuple[int, int, str, tuple[str, ...]]] = []  # (line, level, module, names)
        self.unresolved_imports: list[SourceLocation] = []  # import_module(...) of a name built at run time
        self.plugin_names = {"NekroPlugin"}
        for node in tree.body:
            self._bind(node)
        self._read_imports(tree)

    def _read_imports(self, tree: ast.Module) -> None:
        """Imports nested in blocks that run at import time, and dynamic ones (module-level constants stay top-level)."""
        dynamic = DynamicImports()
        for node in import_time(tree.body):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                dynamic.learn(node)
                if node not in tree.body:
                    self._bind(node)
        for node in import_time(tree.body):
            for found in dynamic.find(node):
                if found.module is None:
                    self.unresolved_imports.append(self.at(found.line, found.column))
                else:
                    self.import_lines.append((found.line, found.level, found.module, ()))
        self.import_lines.sort(key=lambda entry: entry[0])

    def _bind(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            self._record_import(node)
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                self.constants[local] = None
                if isinstance(node, ast.ImportFrom):
                    self.imports[local] = (node.level, node.module or "", alias.name)
                    if alias.name == "NekroPlugin":
                        self.plugin_names.add(local)
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        value = getattr(node, "value", None)
        for target in targets:
            if isinstance(target, ast.Name):
                once = target.id not in self.constants and len(targets) == 1 and value is not None
                self.constants[target.id] = value if once else None

    def _record_import(self, node: ast.Import | ast.ImportFrom) -> None:
        """Remember the import statement in order: the files it runs decide the order of mounts."""
        if isinstance(node, ast.ImportFrom):
            self.import_lines.append((node.lineno, node.level, node.module or "", tuple(a.name for a in node.names)))
        else:
            self.import_lines += [(node.lineno, 0, alias.name, ()) for alias in node.names]

    def where(self, node: ast.AST) -> SourceLocation:
        """The 1-based line and *character* column of a node (ast counts UTF-8 bytes)."""
        return self.at(getattr(node, "lineno", 1), getattr(node, "col_offset", 0))

    def at(self, line: int, col_offset: int) -> SourceLocation:
        """The location of an ast position: ``col_offset`` counts UTF-8 bytes, the result's column characters."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        column = len(text.encode("utf-8")[:col_offset].decode("utf-8", "replace")) + 1
        return SourceLocation(path=self.path, line=line, column=column)

    def value(self, node: ast.expr, seen: frozenset[str] = frozenset()) -> Any:
        """The value of a constant expression; raises Unresolved for anything built at run time."""
        if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, bool, int, float))):
            return node.value
        if isinstance(node, ast.JoinedStr):
            if all(isinstance(part, ast.Constant) for part in node.values):
                return "".join(str(part.value) for part in node.values if isinstance(part, ast.Constant))  # all are, as checked above
            raise Unresolved("an f-string with placeholders is built at run time", node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left, seen), self.value(node.right, seen)
            if isinstance(left, str) and isinstance(right, str):
                return left + right
            raise Unresolved("only strings are joined with '+'", node)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.value(item, seen) for item in node.elts]
        if isinstance(node, ast.Name):
            return self._name(node, seen)
        if isinstance(node, ast.Call):
            raise Unresolved("a call is evaluated at run time", node)
        raise Unresolved(f"a {type(node).__name__} expression is evaluated at run time", node)

    def _name(self, node: ast.Name, seen: frozenset[str]) -> Any:
        if node.id in seen:
            raise Unresolved(f"the name '{node.id}' refers to itself", node)
        if node.id in self.imports:
            raise Unresolved(f"the name '{node.id}' is imported; other modules are not followed", node)
        bound = self.constants.get(node.id)
        if bound is None:
            why = "is not a module-level constant" if node.id not in self.constants else "is not bound once with '='"
            raise Unresolved(f"the name '{node.id}' {why}", node)
        return self.value(bound, seen | {node.id})

    def is_plugin_call(self, node: ast.AST) -> TypeGuard[ast.Call]:
        """Whether ``node`` calls NekroPlugin (by name, alias or attribute)."""
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        return (isinstance(func, ast.Name) and func.id in self.plugin_names) or (
            isinstance(func, ast.Attribute) and func.attr == "NekroPlugin")
