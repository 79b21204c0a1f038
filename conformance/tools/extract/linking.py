"""Linking mounts to plugins across the files of a plugin, in the order Python runs them.

NekroAgent lists a plugin's methods in the order they were mounted, that is in the order
Python executed the ``mount_*`` calls while importing the plugin. That order is rebuilt by
running the files in import order: a package starts at its ``__init__.py``, a lone file at
itself; each statement-level import of another file of the set runs that file (once) at the
import's line, before the mounts that follow it. Every import Python runs while importing the
module counts (:mod:`conformance.tools.extract.imports`: nested in ``if``/``try``/``with``
blocks, ``importlib.import_module`` with a literal name). A file of a package that no import
reaches is never run by NekroAgent: its mounts are left out, with a warning.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import PurePosixPath

from conformance.tools.extract.methods import COLLECT, INJECT, Mount, rendered_doc
from conformance.tools.extract.model import FileScan, Method, Plugin, warning
from reference_impl.problems import Problem, Severity, SourceLocation


def module_path(path: str) -> PurePosixPath:
    """A file's path as a module path: ``pkg/plugin.py`` -> ``pkg/plugin``, ``pkg/__init__.py`` -> ``pkg``."""
    pure = PurePosixPath(path.replace("\\", "/")).with_suffix("")
    return pure.parent if pure.name == "__init__" else pure


def _is_package(scan: FileScan) -> bool:
    return PurePosixPath(scan.path.replace("\\", "/")).name == "__init__.py"


class _Files:
    """The scanned files by module path, and how an import statement names one of them."""

    def __init__(self, scans: Sequence[FileScan]) -> None:
        self.scans = scans
        self.by_module = {module_path(s.path): s for s in scans}

    def find(self, scan: FileScan, level: int, module: str) -> FileScan | None:
        """The file ``from <level dots><module> import ...`` (or ``import <module>``) runs, if in the set."""
        parts = [p for p in module.split(".") if p]
        if level:
            base = module_path(scan.path) if _is_package(scan) else module_path(scan.path).parent
            for _ in range(level - 1):
                base = base.parent
            return self.by_module.get(base.joinpath(*parts) if parts else base)
        matches = [s for m, s in self.by_module.items() if parts and m.parts[-len(parts):] == tuple(parts)]
        return matches[0] if len(matches) == 1 else None

    def imported(self, scan: FileScan, level: int, module: str, names: tuple[str, ...]) -> Iterator[FileScan]:
        """The files one import statement runs: the module, then any submodules it names."""
        target = self.find(scan, level, module)
        if target is not None:
            yield target
        base = module_path(target.path) if target is not None and _is_package(target) else None
        if base is None and level and not module:
            base = module_path(scan.path) if _is_package(scan) else module_path(scan.path).parent
        if base is None:
            return
        for name in names:
            if base.joinpath(name) in self.by_module:
                yield self.by_module[base.joinpath(name)]


def execution_order(scans: Sequence[FileScan]) -> tuple[list[tuple[FileScan, Mount]], list[FileScan]]:
    """Every mount in the order Python would run it, and the package files that nothing runs."""
    files = _Files(scans)
    imported = {id(t) for s in scans for (_, level, module, names) in s.import_lines
                for t in files.imported(s, level, module, names) if t is not s}
    inside_package = {id(s) for s in scans for p in scans if _is_package(p) and s is not p
                      and module_path(p.path) in module_path(s.path).parents}
    roots = [s for s in scans if (_is_package(s) and id(s) not in inside_package)
             or (id(s) not in inside_package and id(s) not in imported)]
    done: set[int] = set()
    order: list[tuple[FileScan, Mount]] = []

    def run(scan: FileScan) -> None:
        done.add(id(scan))
        events = [(m.line, 1, m) for m in scan.mounts] + [(line, 0, (lv, mod, names))
                                                          for line, lv, mod, names in scan.import_lines]
        for _, _, event in sorted(events, key=lambda e: (e[0], e[1])):
            if isinstance(event, Mount):
                order.append((scan, event))
                continue
            for target in files.imported(scan, *event):
                if id(target) not in done:
                    run(target)

    lone = [s for s in scans if id(s) not in inside_package and not _is_package(s)]  # e.g. import cycles
    for root in [*roots, *lone]:
        if id(root) not in done:
            run(root)
    return order, [s for s in scans if id(s) not in done]


def _owner(files: _Files, scan: FileScan, target: str) -> tuple[str, str] | None:
    if any(p.variable == target for p in scan.plugins):
        return scan.path, target
    if target in scan.imports:
        level, module, name = scan.imports[target]
        source = files.find(scan, level, module)
        if source is not None and any(p.variable == name for p in source.plugins):
            return source.path, name
    return None


def _function(files: _Files, scan: FileScan, name: str | None):
    if name is None:
        return None
    if name in scan.functions:
        return scan.functions[name]
    if name in scan.imports:
        level, module, original = scan.imports[name]
        source = files.find(scan, level, module)
        return source.functions.get(original) if source is not None else None
    return None


def _method(files: _Files, scan: FileScan, mount: Mount) -> tuple[Method | None, Problem | None]:
    function = _function(files, scan, mount.function)
    if function is None:
        return None, warning("unresolved-method", f"the mounted function '{mount.function}' is not defined in or "
                              "imported from the given files; this mount is left out", mount.source)
    description = rendered_doc(function.doc)
    if description is None:
        return None, warning("method-without-docstring", f"method {function.name} has no docstring, so NekroAgent "
                              "never shows it to the model (it logs a warning and skips it); it is left out: write a "
                              "docstring saying what the method does and how to call it", function.source)
    return Method(name=function.name, kind=mount.kind or "tool", description=description, label=mount.label,
                  display_name=mount.display_name, parameters=function.parameters, source=function.source), None


def _filter_note(mount: Mount) -> Problem:
    return Problem(code="runtime-method-filter", severity=Severity.INFO, source=mount.source,
                   message=f"{mount.target}.mount_collect_methods() picks at run time, per conversation, which "
                   "methods are shown; the manifest lists every mounted method, so pas budget counts the most "
                   "NekroAgent can show (an upper bound)")


def _unreached(source: SourceLocation, dynamic: list[SourceLocation]) -> Problem:
    """The warning for a mount in a file no import reaches; it names a run-time import that might reach it."""
    if dynamic:
        return warning("unimported-module", f"no import pas extract can follow reaches this file, but the "
                       f"import_module(...) at {dynamic[0]} builds its module name at run time and may load it; "
                       "write that name as a string literal so that it can be followed. This mount is left out", source)
    return warning("unimported-module", "no import of the plugin package reaches this file, so NekroAgent never runs "
                   "it and this mount is left out", source)


def link(scans: Sequence[FileScan]) -> tuple[list[Plugin], list[Problem]]:
    """The plugins of all files with their mounted methods in mount order; problems for what cannot be linked."""
    files = _Files(scans)
    order, unreached = execution_order(scans)
    problems: list[Problem] = []
    dynamic = [where for scan in scans for where in scan.unresolved_imports]
    for scan in unreached:
        problems += [_unreached(m.source, dynamic) for m in scan.mounts]
    methods: dict[tuple[str, str], list[Method]] = {}
    injects: dict[tuple[str, str], str | None] = {}
    filters: dict[tuple[str, str], SourceLocation] = {}
    for scan, mount in order:
        key = _owner(files, scan, mount.target)
        if key is None:
            problems.append(warning("unlinked-method", f"'{mount.target}' is no NekroPlugin defined in or imported "
                                     "from the given files; this mount is left out", mount.source))
        elif mount.what == INJECT:
            function = _function(files, scan, mount.function)
            injects[key] = function.returns if function is not None else None
        elif mount.what == COLLECT:
            filters.setdefault(key, mount.source)
            problems.append(_filter_note(mount))
        else:
            method, problem = _method(files, scan, mount)
            methods.setdefault(key, []).extend([method] if method else [])
            problems += [problem] if problem else []
    plugins = [replace(p, methods=tuple(methods.get((s.path, p.variable or ""), ())),
                       injects_prompt=(s.path, p.variable or "") in injects,
                       injected_text=injects.get((s.path, p.variable or "")),
                       method_filter=filters.get((s.path, p.variable or "")))
               for s in scans for p in s.plugins]
    return plugins, problems
