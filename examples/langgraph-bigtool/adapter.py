#!/usr/bin/env python3
"""A PAS stdio adapter (protocol v1, profile `disclosure`) over LangGraph bigtool 0.0.3's REAL graph.

Run it with the Python of a bigtool venv (scripts/install-bigtool.sh), never PAS's own:

    pas run --impl "cmd:$HOME/.cache/pas/bigtool-working-venv/bin/python examples/langgraph-bigtool/adapter.py"
    pas run --impl "cmd:$HOME/.cache/pas/bigtool-default-venv/bin/python examples/langgraph-bigtool/adapter.py"

The working set (langgraph-prebuilt 1.0.1) runs; on the default set (what `pip install
langgraph-bigtool==0.0.3` resolves) every call of a registry tool raises inside bigtool's graph, and
the adapter reports that as what happened (the tool did not run), so the crash is the suite's verdict.

It imports no PAS package: the protocol is ../disclosure-stdio/disclosure_stdio.py (standard library
only), the host is driver.py's `BigtoolDriver`: the graph of `langgraph_bigtool.create_agent` (its
`retrieve_tools` over bigtool's own store search, the `selected_tool_ids` reducer, its ToolNode over
the whole registry) compiled with an `InMemorySaver` checkpointer and an `InMemoryStore`, under a
scripted model (README.md lists the stand-ins).

What the suite sees is read off what bigtool did:
* tool lists are the tools bigtool bound for each model call (`retrieve_tools` is `@search`; a
  registry id is the catalogue name, bigtool renames nothing);
* a search is a `retrieve_tools` call; its answer is bigtool's ToolMessage `Available tools: [...]`
  (`langgraph_bigtool/graph.py:38`), whose names are exactly what that retrieval hands the
  `selected_tool_ids` reducer (`graph.py:112-113`): `found` and `loaded` are those names;
* an invoke is `executed` when the registry tool's function ran.
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
    call_kind,
    driver_call,
    invoke_answer,
    protocol_stdout,
    run,
    with_text,
)

PROTOCOL_OUT = protocol_stdout()  # before LangGraph is imported: anything it prints goes to stderr

from bigtool_answers import retrieved  # noqa: E402 - after stdout is safe
from driver import RETRIEVE, BigtoolDriver  # noqa: E402 - as above
from driver_protocol import Answer, Call  # noqa: E402 - as above

# Declared in hello; README.md "Options declared" gives the source line behind each value. `batch`,
# `order`, `listing` take their defaults: bigtool has no load by name for batch to describe, appends
# (graph.py:16-18) and has no listing tool.
OPTIONS = {"state_scope": "thread", "discovery": "search_loads", "unload": [], "hidden_calls": "executed",
           "expiry": "none"}
# bigtool's default is limit=2 (graph.py:49): every search would also select the next-nearest tool. One
# tool per search keeps the suite's exact-name searches about the one tool asked for; the nearest-anyway
# retrieval still shows in a search that matches nothing (README.md, "Configuration").
DRIVER_OPTIONS = {"limit": 1, "retrieval": "store"}
class BigtoolHost(DriverHost):
    """LangGraph bigtool behind the PAS disclosure commands (see the module docstring)."""

    name = "langgraph-bigtool (PAS adapter)"
    version = (f"{importlib.metadata.version('langgraph-bigtool')} (langgraph {importlib.metadata.version('langgraph')}, "
               f"langgraph-prebuilt {importlib.metadata.version('langgraph-prebuilt')})")
    options = OPTIONS

    async def open(self, tools: Sequence[Mapping[str, Any]]) -> None:
        """A new BigtoolDriver: registry and store from the catalogue; always-visible ids seed every thread."""
        await self.open_driver(BigtoolDriver.open, tools, DRIVER_OPTIONS)

    def tokens(self, names: Sequence[str]) -> list[str]:
        """The bound tools with `retrieve_tools` as `@search` (registry ids are the catalogue names)."""
        return ["@search" if name == RETRIEVE else name for name in names]

    def host_call(self, call: Mapping[str, Any]) -> Call | None:
        """search -> retrieve_tools(query), invoke -> the tool; bigtool has no tool to load, unload or list."""
        if call_kind(call) in ("search", "invoke"):
            return driver_call(call, {})
        return None

    def answer(self, call: Mapping[str, Any], answer: Answer) -> dict[str, Any]:
        """A search's names from bigtool's answer text; an invoke's outcome from whether the tool ran."""
        if call_kind(call) == "search":
            names = retrieved(answer.text)
            return with_text({"call": "search", "found": names, "loaded": names}, answer)
        return invoke_answer(call, answer, self.catalogue)

    async def rebuild(self, store: str) -> None:
        """Recompile the graph: with the same checkpointer ("kept") or a new InMemorySaver ("reset")."""
        await self.live().rebuild(store)

    async def idle(self, seconds: float) -> None:
        """Nothing to do: the selection lives in the checkpointed graph state, and neither the InMemorySaver
        nor the InMemoryStore has a time-to-live (no ttl in langgraph/checkpoint/memory/__init__.py)."""

    async def clear(self, thread: str) -> None:
        """bigtool has no API that clears a thread's selection. Raises AdapterLimit."""
        raise AdapterLimit("adapter limit: bigtool has no host-side clear of a thread's selected tools; the reducer "
                           "only appends (langgraph_bigtool/graph.py:16-18); the adapter declares unload []")


if __name__ == "__main__":
    run(BigtoolHost(), PROTOCOL_OUT)
