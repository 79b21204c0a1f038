"""Names of other frameworks made PAS identifiers: a plugin's ``module_name`` and a method's ``name``.

A module name is an ASCII letter or underscore followed by letters, digits or underscores, at
most 64 characters (the manifest schema). An MCP server's name (``mcp-fetch``,
``@modelcontextprotocol/server-filesystem``) and an Agent Skill's (``pdf-processing``) are
not, so :func:`module_name_from` applies one documented rule to both.
"""

from __future__ import annotations

import re

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def module_name_from(name: str, *, digit_prefix: str) -> str | None:
    """The module name made of ``name``, or None when nothing of it is usable.

    The rule: the part after the last ``/`` (an npm scope or a path goes), lower-cased; every
    run of characters other than ``a-z``, ``0-9`` and ``_`` becomes one ``_``, and ``_`` at
    either end goes; ``digit_prefix`` is put in front of a leading digit; at most 64
    characters. ``@modelcontextprotocol/server-filesystem`` -> ``server_filesystem``,
    ``mcp-fetch`` -> ``mcp_fetch``, ``pdf-processing`` -> ``pdf_processing``.
    """
    text = re.sub(r"[^a-z0-9_]+", "_", name.rsplit("/", 1)[-1].lower()).strip("_")
    if text[:1].isdigit():
        text = digit_prefix + text
    return text[:64].rstrip("_") or None


def method_name_from(name: str) -> str | None:
    """A name as a method name: kept when it is an identifier, else each run of other characters made ``_``."""
    if _IDENTIFIER.match(name):
        return name
    text = re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_")
    text = "_" + text if text[:1].isdigit() else text
    return text or None
