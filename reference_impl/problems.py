"""Problems are data: what is wrong, where (file, line, column, JSON pointer), what to change."""

from __future__ import annotations

import enum
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
        return {"path": self.path, "line": self.line, "column": self.column}


@dataclass(frozen=True, slots=True, kw_only=True)
class Problem:
    """One finding: a stable kebab-case ``code``, a sentence saying what to change, and where."""

    code: str
    message: str
    pointer: str = ""
    source: SourceLocation | None = None
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        where = f"{self.source}: " if self.source else ""
        pointer = f" [{self.pointer}]" if self.pointer else ""
        return f"{where}{self.severity.value} {self.code} {self.message}{pointer}"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "pointer": self.pointer,
            "source": self.source.to_json() if self.source else None,
        }


def pointer_join(pointer: str, key: str | int) -> str:
    """Append one reference token to an RFC 6901 JSON pointer, escaping ``~`` and ``/``."""
    token = str(key).replace("~", "~0").replace("/", "~1")
    return f"{pointer}/{token}"


def pointer_of(path: tuple[str | int, ...] | list[str | int]) -> str:
    """The JSON pointer of a path of keys and indexes (``()`` is the root, ``""``)."""
    pointer = ""
    for key in path:
        pointer = pointer_join(pointer, key)
    return pointer
