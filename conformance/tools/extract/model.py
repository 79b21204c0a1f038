"""What extraction reads from NekroAgent plugin sources: plugins, methods, files, each with where it was written."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.tools.extract import methods as mounting
from reference_impl.problems import Problem, Severity, SourceLocation


@dataclass(frozen=True, slots=True, kw_only=True)
class Located:
    """A value read from the source, with where it was written."""

    value: Any
    source: SourceLocation


@dataclass(frozen=True, slots=True, kw_only=True)
class Method:
    """A sandbox method as NekroAgent shows it: function name, kind, rendered docstring."""

    name: str
    kind: str
    description: str  # __doc__.strip(), exactly the text NekroAgent puts under the name
    label: str | None = None  # mount_sandbox_method(description=...): WebUI only
    display_name: str | None = None  # mount_sandbox_method(name=...): WebUI only
    parameters: Mapping[str, Any] = field(default_factory=dict)
    source: SourceLocation


@dataclass(frozen=True, slots=True, kw_only=True)
class Plugin:
    """One ``NekroPlugin(...)`` call and what was mounted on it."""

    variable: str | None  # the module-level name it is bound to, if any
    source: SourceLocation
    fields: Mapping[str, Located] = field(default_factory=dict)
    methods: tuple[Method, ...] = ()
    injects_prompt: bool = False
    injected_text: str | None = None  # what its injection returns, when that is a string literal
    method_filter: SourceLocation | None = None  # where mount_collect_methods is used
    rejected: bool = False  # NekroAgent raises TypeError on this call: the plugin never loads


@dataclass(frozen=True, slots=True, kw_only=True)
class FileScan:
    """What one file defines (plugins, functions), mounts, and imports."""

    path: str
    plugins: tuple[Plugin, ...] = ()
    mounts: tuple[mounting.Mount, ...] = ()
    functions: Mapping[str, mounting.Function] = field(default_factory=dict)
    imports: Mapping[str, tuple[int, str, str]] = field(default_factory=dict)  # local name -> (level, module, name)
    import_lines: tuple[tuple[int, int, str, tuple[str, ...]], ...] = ()  # (line, level, module, names)
    unresolved_imports: tuple[SourceLocation, ...] = ()  # import_module(...) calls with a name built at run time
    problems: tuple[Problem, ...] = ()


def warning(code: str, message: str, source: SourceLocation) -> Problem:
    """A warning of extraction at ``source`` (the .py file and line it comes from)."""
    return Problem(code=code, message=message, source=source, severity=Severity.WARNING)
