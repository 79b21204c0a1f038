"""An MCP server serving a PAS catalogue, built with the official MCP SDK (mcp 2.3.0).

`build_server(catalogue, log)` returns an `mcp.server.lowlevel.Server` whose `tools/list` answers
the catalogue's tools with their JSON-schema parameters exactly as given, and whose `tools/call`
records every execution in `log` (a list of `(name, arguments)`) and answers
"<name> ran with <arguments as JSON>". It is connected in-process with `mcp.Client(server)`.

Why the low-level `Server` and not `mcp.server.mcpserver.MCPServer`: MCPServer derives a tool's
input schema from its Python function's signature (a pydantic model: it adds titles and a
"<name>Arguments" title), so it cannot serve a catalogue's hand-written schemas unchanged, and
MAF's `list_mcp_tools` shows the model those schemas verbatim.

Run as a script it serves over stdio (the `stdio` transport of the driver):
    python catalogue_server.py CATALOGUE.json LOG.jsonl
appending one JSON line `{"name": …, "arguments": …}` to LOG.jsonl per execution.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

Recorder = Callable[[str, dict[str, Any]], None]


def build_server(catalogue: Sequence[Mapping[str, Any]], record: Recorder, name: str = "pas-catalogue") -> Server:
    """A low-level MCP server listing `catalogue` (dicts: name, description, parameters) and recording calls.

    The catalogue is read again on every tools/list and tools/call, so a caller that changes the list
    it passed in changes what the server offers (as a server whose tools change would).
    Raises ValueError when a catalogue entry has no name or two entries share one.
    """
    _tools(catalogue)

    async def on_list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=_tools(catalogue))

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        if params.name not in {tool.name for tool in _tools(catalogue)}:
            # MAF only calls tools it listed; answer an unknown one as an error result, as the MCP spec asks.
            return types.CallToolResult(content=[types.TextContent(text=f"unknown tool {params.name}")], is_error=True)
        record(params.name, arguments)
        text = f"{params.name} ran with {json.dumps(arguments, sort_keys=True)}"
        return types.CallToolResult(content=[types.TextContent(text=text)])

    return Server(name, on_list_tools=on_list_tools, on_call_tool=on_call_tool)


def _tools(catalogue: Sequence[Mapping[str, Any]]) -> list[types.Tool]:
    """The catalogue as MCP tools. Raises ValueError on a missing or repeated name."""
    tools = [_mcp_tool(entry) for entry in catalogue]
    names = [tool.name for tool in tools]
    if len(set(names)) != len(names):
        raise ValueError(f"catalogue names repeat: {sorted({n for n in names if names.count(n) > 1})}")
    return tools


def _mcp_tool(entry: Mapping[str, Any]) -> types.Tool:
    """One catalogue entry as an MCP tool (parameters default to an empty object schema)."""
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"a catalogue entry needs a non-empty string name: {dict(entry)!r}")
    schema = dict(entry.get("parameters") or {"type": "object", "properties": {}})
    return types.Tool(name=name, description=str(entry.get("description", "")), input_schema=schema)


def file_recorder(path: str) -> Recorder:
    """A recorder appending one JSON line per execution to `path` (for the stdio server process)."""

    def record(name: str, arguments: dict[str, Any]) -> None:
        with open(path, "a", encoding="utf-8") as stream:
            stream.write(json.dumps({"name": name, "arguments": arguments}) + "\n")

    return record


async def _serve_stdio(catalogue_path: str, log_path: str) -> None:
    from mcp.server.stdio import stdio_server

    with open(catalogue_path, encoding="utf-8") as stream:
        catalogue = json.load(stream)
    server = build_server(catalogue, file_recorder(log_path))
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    if len(sys.argv) != 3:
        sys.exit("usage: catalogue_server.py CATALOGUE.json LOG.jsonl")
    anyio.run(_serve_stdio, sys.argv[1], sys.argv[2])
