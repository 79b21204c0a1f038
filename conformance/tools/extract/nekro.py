"""Reading NekroAgent plugin source files with :mod:`ast`: never importing or running them.

What is read, per file:

- every ``NekroPlugin(...)`` call (also ``api.NekroPlugin`` and ``import ... as`` aliases), its
  fields given as keywords or by position: string, boolean and ``None`` constants, lists of
  them, implicit concatenation, ``+`` between strings, f-strings without placeholders, and
  names bound once at module level to such values. Anything else is computed at run time:
  a warning with file:line:col, and the field is left out, never guessed;
- every ``@<plugin>.mount_sandbox_method(SandboxMethodType.KIND, name=..., description=...)``
  on a function: the method is the *function's* name (what the model calls; NekroAgent's
  ``name=`` is a display label, often Chinese, kept as ``x-nekro-name``), its kind from the
  ``SandboxMethodType`` member, its description from ``description=`` or else the first line
  of the docstring;
- whether ``@<plugin>.mount_prompt_inject_method(...)`` is used (``injects_prompt``).

Methods mounted in another file of the same input set (``from .plugin import plugin``, as in
NekroAgent's package plugins) are linked to their plugin.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Any

from reference_impl.problems import Problem, Severity, SourceLocation

FIELDS = ("name", "module_name", "description", "version", "author", "url", "support_adapter", "is_builtin",
          "allow_sleep", "sleep_brief")
POSITIONAL = FIELDS[:8]  # NekroPlugin's parameters in order, as far as PAS needs them
IGNORED = frozenset({"is_package", "i18n_name", "i18n_description", "webui_path"})
KINDS = {"TOOL": "tool", "AGENT": "agent", "BEHAVIOR": "behavior", "MULTIMODAL_AGENT": "multimodal_agent"}
SANDBOX, INJECT = "mount_sandbox_method", "mount_prompt_inject_method"


@dataclass(frozen=True, slots=True, kw_only=True)
class Located:
    """A value read from the source, with where it was written."""

    value: Any
    source: SourceLocation


@dataclass(frozen=True, slots=True, kw_only=True)
class Method:
    """A sandbox method mounted on a plugin."""

    name: str
    kind: str
    description: str
    display_name: str | None = None
    source: SourceLocation


@dataclass(frozen=True, slots=True, kw_only=True)
class Plugin:
    """One ``NekroPlugin(...)`` call and what was mounted on it."""

    variable: str | None  # the module-level name it is bound to, if any
    source: SourceLocation
    fields: Mapping[str, Located] = field(default_factory=dict)
    methods: tuple[Method, ...] = ()
    injects_prompt: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Mount:
    """A ``mount_*`` decorator naming a plugin variable; ``method`` is None for a prompt injection."""

    target: str
    method: Method | None
    source: SourceLocation


@dataclass(frozen=True, slots=True, kw_only=True)
class FileScan:
    """What one file defines (plugins), mounts, and imports (local name -> (level, module, name))."""

    path: str
    plugins: tuple[Plugin, ...] = ()
    mounts: tuple[Mount, ...] = ()
    imports: Mapping[str, tuple[int, str, str]] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


class _Unresolved(Exception):
    """A value that only exists at run time: why, and the node where it is built."""

    def __init__(self, why: str, node: ast.AST) -> None:
        super().__init__(why)
        self.why = why
        self.node = node


class _Reader:
    """One parsed file: its module-level constants and the aliases it gives NekroAgent names."""

    def __init__(self, tree: ast.Module, text: str, path: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.constants: dict[str, ast.expr | None] = {}  # None: bound more than once, or not by '='
        self.imports: dict[str, tuple[int, str, str]] = {}
        self.plugin_names = {"NekroPlugin"}
        for node in tree.body:
            self._bind(node)

    def _bind(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
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

    def where(self, node: ast.AST) -> SourceLocation:
        """The 1-based line and *character* column of a node (ast counts UTF-8 bytes)."""
        line = getattr(node, "lineno", 1)
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        column = len(text.encode("utf-8")[: getattr(node, "col_offset", 0)].decode("utf-8", "replace")) + 1
        return SourceLocation(path=self.path, line=line, column=column)

    def value(self, node: ast.expr, seen: frozenset[str] = frozenset()) -> Any:
        """The value of a constant expression; raises _Unresolved for anything built at run time."""
        if isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, (str, bool, int, float))):
            return node.value
        if isinstance(node, ast.JoinedStr):
            if all(isinstance(part, ast.Constant) for part in node.values):
                return "".join(str(part.value) for part in node.values)
            raise _Unresolved("an f-string with placeholders is built at run time", node)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.value(node.left, seen), self.value(node.right, seen)
            if isinstance(left, str) and isinstance(right, str):
                return left + right
            raise _Unresolved("only strings are joined with '+'", node)
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.value(item, seen) for item in node.elts]
        if isinstance(node, ast.Name):
            return self._name(node, seen)
        if isinstance(node, ast.Call):
            raise _Unresolved("a call is evaluated at run time", node)
        raise _Unresolved(f"a {type(node).__name__} expression is evaluated at run time", node)

    def _name(self, node: ast.Name, seen: frozenset[str]) -> Any:
        if node.id in seen:
            raise _Unresolved(f"the name '{node.id}' refers to itself", node)
        if node.id in self.imports:
            raise _Unresolved(f"the name '{node.id}' is imported; other modules are not followed", node)
        bound = self.constants.get(node.id)
        if bound is None:
            why = "is not a module-level constant" if node.id not in self.constants else "is not bound once with '='"
            raise _Unresolved(f"the name '{node.id}' {why}", node)
        return self.value(bound, seen | {node.id})

    def is_plugin_call(self, node: ast.AST) -> bool:
        """Whether ``node`` calls NekroPlugin (by name, alias or attribute)."""
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        return (isinstance(func, ast.Name) and func.id in self.plugin_names) or (
            isinstance(func, ast.Attribute) and func.attr == "NekroPlugin")


def _warning(code: str, message: str, source: SourceLocation) -> Problem:
    return Problem(code=code, message=message, source=source, severity=Severity.WARNING)


def _plugin(reader: _Reader, call: ast.Call, variable: str | None) -> tuple[Plugin, list[Problem]]:
    problems: list[Problem] = []
    given: list[tuple[str, ast.expr]] = list(zip(POSITIONAL, call.args))
    if len(call.args) > len(POSITIONAL):
        problems.append(_warning("unsupported-argument", f"NekroPlugin takes at most {len(POSITIONAL)} positional "
                                 "arguments that PAS reads; pass the others by keyword", reader.where(call.args[-1])))
    for keyword in call.keywords:
        if keyword.arg is None:
            problems.append(_warning("unresolved-field", "'**' arguments are unpacked at run time; fields they set "
                                     "are left out", reader.where(keyword.value)))
        elif keyword.arg in FIELDS:
            given.append((keyword.arg, keyword.value))
    fields: dict[str, Located] = {}
    for name, node in given:
        try:
            fields[name] = Located(value=reader.value(node), source=reader.where(node))
        except _Unresolved as unresolved:
            problems.append(_warning("unresolved-field", f"{name}: {unresolved.why}; the field is left out",
                                     reader.where(unresolved.node)))
    return Plugin(variable=variable, source=reader.where(call), fields=fields), problems


def _mount_arguments(call: ast.Call) -> dict[str, ast.expr]:
    """The arguments of a mount_* call by parameter name (method_type, name, description)."""
    names = ("method_type", "name", "description") if call.func.attr == SANDBOX else ("name", "description")
    found = dict(zip(names, call.args))
    found.update({k.arg: k.value for k in call.keywords if k.arg})
    return found


def _docstring_line(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    doc = ast.get_docstring(function) or ""
    return next((line.strip() for line in doc.splitlines() if line.strip()), "")


def _method(reader: _Reader, call: ast.Call, function: Any) -> tuple[Method | None, list[Problem]]:
    arguments, problems = _mount_arguments(call), []
    kind_node = arguments.get("method_type")
    member = kind_node.attr if isinstance(kind_node, ast.Attribute) else None
    if member not in KINDS:
        where = reader.where(kind_node or call)
        problems.append(_warning("unresolved-method", f"method {function.name}: its kind must be written as "
                                 "SandboxMethodType.TOOL, AGENT, BEHAVIOR or MULTIMODAL_AGENT; the method is left out", where))
        return None, problems
    texts: dict[str, str | None] = {}
    for key in ("name", "description"):
        node = arguments.get(key)
        try:
            value = reader.value(node) if node is not None else None
            texts[key] = value if isinstance(value, str) else None
        except _Unresolved as unresolved:
            fallback = "; the docstring's first line is used" if key == "description" else ""
            problems.append(_warning("unresolved-field", f"method {function.name} {key}: {unresolved.why}{fallback}",
                                     reader.where(unresolved.node)))
            texts[key] = None
    description = (texts["description"] or "").strip() or _docstring_line(function)
    display = texts["name"] if texts["name"] not in (None, "", function.name) else None
    return Method(name=function.name, kind=KINDS[member], description=description, display_name=display,
                  source=reader.where(function)), problems


def _mounts(reader: _Reader, tree: ast.Module) -> tuple[list[Mount], list[Problem]]:
    mounts, problems = [], []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for decorator in function.decorator_list:
            func = decorator.func if isinstance(decorator, ast.Call) else None
            if not (isinstance(func, ast.Attribute) and func.attr in (SANDBOX, INJECT) and isinstance(func.value, ast.Name)):
                continue
            method = None
            if func.attr == SANDBOX:
                method, found = _method(reader, decorator, function)
                problems += found
                if method is None:
                    continue
            mounts.append(Mount(target=func.value.id, method=method, source=reader.where(decorator)))
    return mounts, problems


def scan_source(text: str, path: str) -> FileScan:
    """Everything one plugin source file defines and mounts; a syntax error is an error Problem."""
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        where = SourceLocation(path=path, line=error.lineno, column=error.offset)
        return FileScan(path=path, problems=(Problem(code="syntax-error", message=f"Python syntax error: {error.msg}",
                                                     source=where),))
    except (ValueError, RecursionError, MemoryError) as error:  # NUL bytes; absurd nesting
        message = f"Python cannot parse it: {str(error) or type(error).__name__}"
        return FileScan(path=path, problems=(Problem(code="syntax-error", message=message,
                                                     source=SourceLocation(path=path, line=1, column=1)),))
    try:
        return _scan_tree(tree, _Reader(tree, text, path))
    except RecursionError:  # e.g. thousands of chained '+': too deep to resolve, and no real plugin does it
        return FileScan(path=path, problems=(Problem(code="syntax-error", message="expressions nest too deeply to read",
                                                     source=SourceLocation(path=path, line=1, column=1)),))


def _scan_tree(tree: ast.Module, reader: _Reader) -> FileScan:
    path = reader.path
    plugins, problems = [], []
    bound = {id(node.value): node for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))}
    for node in ast.walk(tree):
        if not reader.is_plugin_call(node):
            continue
        statement = bound.get(id(node))
        targets = (statement.targets if isinstance(statement, ast.Assign) else [statement.target]) if statement else []
        variable = targets[0].id if len(targets) == 1 and isinstance(targets[0], ast.Name) else None
        plugin, found = _plugin(reader, node, variable)
        plugins.append(plugin)
        problems += found
        if variable is None:
            problems.append(_warning("unbound-plugin", "this NekroPlugin(...) is not bound to a module-level name, "
                                     "so no mounted method can be linked to it", plugin.source))
    mounts, found = _mounts(reader, tree)
    return FileScan(path=path, plugins=tuple(plugins), mounts=tuple(mounts), imports=reader.imports,
                    problems=tuple(problems + found))


def _module_path(path: str) -> PurePosixPath:
    """A file's path as a module path: ``pkg/plugin.py`` -> ``pkg/plugin``, ``pkg/__init__.py`` -> ``pkg``."""
    pure = PurePosixPath(path.replace("\\", "/")).with_suffix("")
    return pure.parent if pure.name == "__init__" else pure


def _imported_file(scan: FileScan, level: int, module: str, scans: Sequence[FileScan]) -> FileScan | None:
    parts = [p for p in module.split(".") if p]
    if level:
        base = PurePosixPath(scan.path.replace("\\", "/")).parent
        for _ in range(level - 1):
            base = base.parent
        wanted = base.joinpath(*parts) if parts else base
        return next((s for s in scans if _module_path(s.path) == wanted), None)
    matches = [s for s in scans if parts and _module_path(s.path).parts[-len(parts):] == tuple(parts)]
    return matches[0] if len(matches) == 1 else None


def link(scans: Sequence[FileScan]) -> tuple[list[Plugin], list[Problem]]:
    """The plugins of all files with their mounted methods; problems for mounts that name no plugin."""
    methods: dict[tuple[str, str], list[Method]] = {}
    injects: set[tuple[str, str]] = set()
    problems: list[Problem] = []
    for scan in scans:
        local = {p.variable for p in scan.plugins if p.variable}
        for mount in scan.mounts:
            key = _owner(scan, mount.target, local, scans)
            if key is None:
                problems.append(_warning("unlinked-method", f"'{mount.target}' is no NekroPlugin defined in or imported "
                                         "from the given files; this mount is left out", mount.source))
            elif mount.method is None:
                injects.add(key)
            else:
                methods.setdefault(key, []).append(mount.method)
    plugins = [replace(p, methods=tuple(methods.get((s.path, p.variable or ""), ())),
                       injects_prompt=(s.path, p.variable or "") in injects)
               for s in scans for p in s.plugins]
    return plugins, problems


def _owner(scan: FileScan, target: str, local: set[str], scans: Sequence[FileScan]) -> tuple[str, str] | None:
    if target in local:
        return scan.path, target
    if target in scan.imports:
        level, module, name = scan.imports[target]
        source = _imported_file(scan, level, module, scans)
        if source is not None and any(p.variable == name for p in source.plugins):
            return source.path, name
    return None


def extract(sources: Iterable[tuple[str, str]]) -> tuple[list[Plugin], list[Problem]]:
    """Plugins and problems from ``(path, text)`` pairs: scan each file, then link mounts across them."""
    scans = [scan_source(text, path) for path, text in sources]
    plugins, problems = link(scans)
    return plugins, [p for s in scans for p in s.problems] + problems
