"""PAS answers read off what Microsoft Agent Framework 1.23.0's loader tools tell the model.

MAF's `load_tool` and `unload_tool` answer one line per requested name, joined with newlines
(`agent_framework/_mcp.py:1955-1996`, `1998-2044`); `list_mcp_tools` answers a JSON array, one object
per server tool with its `remote_name` and `loaded` (`_mcp.py:1770-1787`). A line is read into
(the name it speaks of, what it says happened); the name is MAF's local function name (or, for an
unknown name, the name as asked), mapped back to the catalogue by the caller. A name no line speaks
of is `unstated`: nothing here decides an outcome MAF did not state.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

# Each sentence MAF's loaders write (file:line in site-packages/agent_framework/_mcp.py) and what it says.
# None: a repeat of a name within one call ("already queued"), whose first line already stated it.
STATEMENTS: tuple[tuple[re.Pattern[str], str | None], ...] = (
    (re.compile(r"Loaded MCP tool '(?P<name>.+)'\. It is available on the next model iteration\."), "loaded"),  # 1984
    (re.compile(r"MCP tool '(?P<name>.+)' is already available\."), "already_loaded"),  # 1977
    (re.compile(r"MCP tool '(?P<name>.+)' is already queued to load\."), None),  # 1980
    (re.compile(r"MCP tool '(?P<name>.+)' is not available\. Available tools: .*"), "not_found"),  # 1738
    (re.compile(r"Unloaded MCP tool '(?P<name>.+)'\. It will be removed on the next model iteration\."),
     "unloaded"),  # 2032
    (re.compile(r"MCP tool '(?P<name>.+)' is not currently loaded\."), "not_loaded"),  # 2029
    (re.compile(r"MCP tool '(?P<name>.+)' is configured in always_load and cannot be unloaded\."), "refused"),  # 2021
    (re.compile(r"MCP loader tool '(?P<name>.+)' cannot be unloaded\."), "refused"),  # 2006
    (re.compile(r"MCP tool '(?P<name>.+)' is already queued to unload\."), None),  # 2024
)


def statements(text: str | None) -> list[tuple[str, str | None]]:
    """(name, outcome) for every line of a loader answer that is one of MAF's sentences, in order."""
    found = []
    for line in (text or "").splitlines():
        for pattern, outcome in STATEMENTS:
            match = pattern.fullmatch(line.strip())
            if match:
                found.append((match["name"], outcome))
                break
    return found


def name_results(asked: Sequence[str], text: str | None, to_pas: Callable[[str], str]) -> list[dict[str, str]]:
    """One result per asked name: what the first line speaking of it says, else `unstated`.

    `to_pas` maps a name as MAF writes it back to the name PAS asked with (catalogue name or loader token).
    """
    said: dict[str, str | None] = {}
    for name, outcome in statements(text):
        said.setdefault(to_pas(name), outcome)
    return [{"name": name, "outcome": said.get(name) or "unstated"} for name in asked]


def listed(text: str | None) -> list[dict[str, Any]]:
    """The tools a `list_mcp_tools` answer names (by `remote_name`, the MCP server's name) and its `loaded` flag.

    An answer that is not MAF's JSON array (an error text) lists nothing.
    """
    try:
        entries = json.loads(text or "")
    except ValueError:
        return []
    if not isinstance(entries, list):
        return []
    return [{"name": str(entry.get("remote_name", entry.get("name"))), "loaded": entry.get("loaded") is True}
            for entry in entries if isinstance(entry, Mapping)]
