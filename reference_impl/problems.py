"""Problems are data: what is wrong, where (file, line, column, JSON pointer), what to change.

One type for every finding of the toolkit: the validator's, the loaders' and the reference
host's. A finding located in a file carries a :class:`SourceLocation` and a pointer; a finding
of the pure host core, which knows no files, carries an :class:`Origin` (which input document,
and the pointer into it) and the plugins it names, until an edge locates it in a file.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


class Severity(enum.StrEnum):
    """How much a problem matters: errors fail a check, warnings only with --strict."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceLocation:
    """A place in a file; line and column are 1-based."""

    path: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.path]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def to_json(self) -> dict[str, Any]:
        """Return ``{"path", "line", "column"}`` (line and column null when unknown)."""
        return {"path": self.path, "line": self.line, "column": self.column}


class SourceKind(enum.StrEnum):
    """The kind of input document a value or a problem comes from."""

    MANIFEST = "manifest"
    HOST_CONFIG = "host_config"
    ENVIRONMENT = "environment"
    COMMAND_LINE = "command_line"


@dataclass(frozen=True, slots=True, kw_only=True)
class Origin:
    """Where something was written, before any file is known: a document and a JSON pointer into it.

    ``name`` is the plugin's module_name for a manifest, ``""`` for the host config, the
    variable name for the environment and the whole argument for the command line; for the
    last two the pointer points into the parsed value.
    """

    kind: SourceKind
    name: str = ""
    pointer: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return the wire form ``{"kind", "name", "pointer"}``."""
        return {"kind": self.kind.value, "name": self.name, "pointer": self.pointer}


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """One finding: a stable kebab-case ``code``, a sentence saying what to change, and where.

    ``plugins`` are the plugins the finding names, in a meaningful order (a host error makes
    each of them invalid); ``origin`` is the input document it comes from when no file is known.
    """

    code: str
    message: str
    pointer: str = ""
    source: SourceLocation | None = None
    severity: Severity = Severity.ERROR
    plugins: tuple[str, ...] = ()
    origin: Origin | None = None

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        pointer = f" [{self.pointer}]" if self.pointer else ""
        return f"{where}{self.severity.value} {self.code} {self.message}{pointer}"

    def to_json(self) -> dict[str, Any]:
        """Return the report form: code, severity, message, pointer and source."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "pointer": self.pointer,
            "source": self.source.to_json() if self.source else None,
        }

    def to_host_json(self) -> dict[str, Any]:
        """Return the host protocol's form (``host_problem`` in protocol/common.schema.yaml)."""
        return {"code": self.code, "severity": self.severity.value, "message": self.message,
                "plugins": list(self.plugins), "origin": self.origin.to_json() if self.origin else None}


def pointer_join(pointer: str, key: str | int) -> str:
    """Append one reference token to an RFC 6901 JSON pointer, escaping ``~`` and ``/``."""
    token = str(key).replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{token}"


def pointer_of(path: Sequence[str | int]) -> str:
    """The JSON pointer of a path of keys and indexes (``()`` is the root, ``""``)."""
    pointer = ""
    for key in path:
        pointer = pointer_join(pointer, key)
    return pointer
