#!/usr/bin/env python3
"""A PAS stdio adapter (protocol v1, profile `disclosure`) over Microsoft Agent Framework 1.23.0's REAL code.

Run it with the Python of the MAF venv (scripts/install-agent-framework.sh), never PAS's own:

    pas run --impl "cmd:$HOME/.cache/pas/agent-framework-venv/bin/python examples/agent-framework/adapter.py"

It imports no PAS package: the protocol is ../disclosure-stdio/disclosure_stdio.py (standard library
only), the host is driver.py's `MafDriver`: an `Agent` whose tool is one `MCPStdioTool` with
`use_progressive_disclosure=True` and `always_load` = the catalogue's always-visible tools, over an
MCP server built with the official MCP SDK, under a scripted model (README.md lists the stand-ins).

What the suite sees is read off what MAF did:
* tool lists are the names MAF put in each model request (`options["tools"]`); its loaders
  `list_mcp_tools`, `load_tool`, `unload_tool` are `@list`, `@load`, `@unload`, and a tool's local
  name maps back to its catalogue name through MAF's own renaming (`_normalize_mcp_name`,
  `_build_prefixed_mcp_name`: `agent_framework/_mcp.py:799-816`; no prefix is configured);
* load and unload results are MAF's answer lines (maf_answers.py), a listing is its JSON, an invoke
  is `executed` when the MCP server ran the tool;
* a rebuild is a restart (`MafDriver.restart`): a new MCPTool, connection and Agent; the store is
  the threads' serialised `AgentSession`s, kept or dropped.
"""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "disclosure-stdio")]

from disclosure_stdio import (  # noqa: E402 - after the path is set; standard library only
    AdapterLimit,
    DriverHost,
    asked_names,
    call_kind,
    driver_call,
    invoke_answer,
    protocol_stdout,
    run,
    with_text,
)

PROTOCOL_OUT = protocol_stdout()  # before MAF is imported: anything it prints goes to stderr

from agent_framework._mcp import _build_prefixed_mcp_name, _normalize_mcp_name  # noqa: E402 - after stdout is safe
from driver import MafDriver  # noqa: E402 - as above
from driver_protocol import Answer, Call  # noqa: E402 - as above
from maf_answers import listed, name_results  # noqa: E402 - as above

# Declared in hello. Each value is what MAF's code does (README.md "Options declared" gives the lines).
# `order` is left out on purpose: MAF documents none, so the default (append) applies and the suite
# shows what its real order does.
OPTIONS = {"state_scope": "instance", "discovery": "load_by_name", "listing": True, "unload": ["model"],
           "batch": True, "hidden_calls": "refused", "expiry": "none"}


class MafHost(DriverHost):
    """Microsoft Agent Framework behind the PAS disclosure commands (see the module docstring)."""

    name = "agent-framework-core (PAS adapter)"
    version = importlib.metadata.version("agent-framework-core")
    options = OPTIONS

    def __init__(self) -> None:
        """No host until disclosure-start."""
        self.to_host: dict[str, str] = {}  # catalogue name or loader token -> the name MAF uses
        self.from_host: dict[str, str] = {}  # the reverse

    async def open(self, tools: Sequence[Mapping[str, Any]]) -> None:
        """A new MafDriver for this catalogue; the always-visible tools are MCPTool's `always_load`."""
        await self.open_driver(MafDriver.open, tools, {})
        loaders = self.driver.describe()["loaders"]  # {"list": "list_mcp_tools", "load": ..., "unload": ...}
        self.to_host = {name: _build_prefixed_mcp_name(_normalize_mcp_name(name), None) for name in self.catalogue}
        self.to_host.update({f"@{kind}": name for kind, name in loaders.items()})
        self.from_host = {host: pas for pas, host in self.to_host.items()}

    def tokens(self, names: Sequence[str]) -> list[str]:
        """The request's tool names with MAF's loaders as tokens and local names as catalogue names."""
        return [self.from_host.get(name, name) for name in names]

    def host_call(self, call: Mapping[str, Any]) -> Call | None:
        """load -> load_tool, unload -> unload_tool, list -> list_mcp_tools, invoke -> the tool; MAF has no search."""
        if call_kind(call) == "search":
            return None
        return driver_call(call, self.to_host)

    def answer(self, call: Mapping[str, Any], answer: Answer) -> dict[str, Any]:
        """The PAS answer read off MAF's answer text (maf_answers.py) or, for an invoke, the server's record."""
        kind = call_kind(call)
        if kind in ("load", "unload"):
            to_pas = lambda name: self.from_host.get(name, name)  # noqa: E731 - a one-line mapping
            return with_text({"call": kind, "results": name_results(asked_names(call), answer.text, to_pas)}, answer)
        if kind == "list":
            return with_text({"call": "list", "listed": listed(answer.text)}, answer)
        return invoke_answer(call, answer, self.catalogue)

    async def rebuild(self, store: str) -> None:
        """A restart: new MCPTool, connection and Agent; the sessions kept (serialised) or dropped."""
        await self.live().restart(store)

    async def idle(self, seconds: float) -> None:
        """Nothing to do: MAF's loaded set is a plain set with no time in it (`_mcp.py:1208`); every line
        that changes it (`_mcp.py:1976`, `1995`, `2043`, `2258`, `3024`, `3211`) answers a loader call, a
        reconnect or a server list change, none reads a clock."""

    async def clear(self, thread: str) -> None:
        """MAF has no host API that clears one thread's loads. Raises AdapterLimit."""
        raise AdapterLimit("adapter limit: MAF has no host-side clear of a thread's loaded tools; the loaded set is "
                           "one per MCPTool (agent_framework/_mcp.py:1208) and the public connect(reset=True) keeps "
                           "it (_mcp.py:2327-2334); the adapter declares unload [model] only")


if __name__ == "__main__":
    run(MafHost(), PROTOCOL_OUT)
