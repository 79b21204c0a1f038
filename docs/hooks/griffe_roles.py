"""A griffe extension for the API page (docs/api.md): docstrings as a reader of the source reads them.

The docstrings name other objects with Sphinx roles (``:class:`~pkg.mod.Name```), which the
page's Markdown would print as written: each becomes inline code of the name (its last part
when written with ``~``). An enum's members carry no docstrings, so the page would not list
them: the enum's docstring gets a table of its members and their values (the wire strings).
mkdocs.yml loads this file in the mkdocstrings handler's ``extensions``.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`(~?)([^`]+)`")
_ENUMS = ("Enum", "StrEnum", "IntEnum")


def _code(match: re.Match[str]) -> str:
    name = match.group(2)
    return f"`{name.rsplit('.', 1)[-1] if match.group(1) else name}`"


def plain_roles(text: str) -> str:
    """``text`` with every Sphinx role replaced by inline code of the name it refers to."""
    return _ROLE.sub(_code, text)


def member_table(cls: griffe.Class) -> str:
    """A Markdown table of an enum's members and their values ('' for a class that is not an enum)."""
    if not any(str(base).rsplit(".", 1)[-1] in _ENUMS for base in cls.bases):
        return ""
    rows = [f"| `{name}` | `{member.value}` |" for name, member in cls.members.items()
            if member.is_attribute and not name.startswith("_") and member.value is not None]
    return "\n".join(["| member | value |", "|---|---|", *rows]) if rows else ""


class SphinxRoles(griffe.Extension):
    """Rewrites the roles of every docstring, and lists each enum's members, once the object tree is built."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring, if it has one; add the member table of an enum."""
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(obj.docstring.value)
        if isinstance(obj, griffe.Class) and obj.docstring is not None and (table := member_table(obj)):
            obj.docstring.value += "\n\n" + table
