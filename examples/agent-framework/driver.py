"""Drive Microsoft Agent Framework 1.23.0's progressive MCP disclosure with a scripted model.

Run with the MAF venv's Python (scripts/install-agent-framework.sh); it imports no PAS code.
Real objects: an `agent_framework.Agent` whose tools are one `MCPStdioTool(use_progressive_disclosure=True,
always_load=...)` connected to an MCP server built with the official MCP SDK from the catalogue
(catalogue_server.py; in-process through `mcp.Client(server)`, or a real stdio process). Stand-in:
the model (scripted_client.py: MAF's chat-client layers with the provider call replaced).

Interface (all methods async; `MafDriver.open(...)` builds and connects):
    MafDriver.open(catalogue, always_visible=(), options={}) -> MafDriver
        catalogue: [{"name", "description", "parameters": JSON schema}], served in this order;
        always_visible: names passed as MCPTool's `always_load`;
        options: transport "memory" (default) | "stdio"; tool_name_prefix (default None: loaders are
        list_mcp_tools / load_tool / unload_tool); compaction_keep_last_groups (an Agent
        SlidingWindowStrategy, default none); function_invocation (overrides of the client's
        function_invocation_configuration); timeout (seconds to wait for the host, default 30).
    begin_request(thread, text=None) -> {"tools": [...names in order...], "tool_choice", "messages"}
        a new run (user turn) on `thread`'s AgentSession (made on first use); returns the first model call.
    model_step(thread, calls) -> StepResult (driver_protocol.py): the model answers with these tool calls;
        load -> load_tool(tool=name or [names]), unload -> unload_tool, list -> list_mcp_tools,
        invoke -> that tool; search is answered "unsupported" (MAF has no search tool) and not sent.
        Per call: the function result text the next model call carries, its exception text, and for
        an invoke whether the MCP server executed it; then the next model call's tool list.
    end_request(thread, text=None) -> {"completed", "error"}: the model answers text; the run ends.
    Requests on different threads may be open at once: each run is an asyncio task, blocked in its
    model call until the driver answers it.
    rebuild(store="kept"|"reset"): a new Agent and chat client; "kept" keeps the MCPTool instance
        (where MAF keeps the loaded set), "reset" makes a new MCPTool and connection. Sessions (history) stay.
    restart(store="kept"|"reset"): the whole host anew, as after a process restart: a new MCPTool,
        connection, Agent and chat client; "kept" restores the sessions from their serialised form,
        "reset" forgets them (the PAS adapter's disclosure-rebuild).
    trim(thread, keep_last): keep the last `keep_last` messages of the thread's stored history.
    reset(kind="close"|"reconnect"): the resets MCPTool offers: `close()` or `connect(reset=True)`.
    state() -> {"loaded": [...], "connected": bool}: MCPTool's private loaded set, for checking facts only.
    close()
Run as a script it serves the JSON-lines loop of driver_protocol.py on stdin/stdout; the request
engine is scripted_driver.py's (in ../disclosure-stdio/, shared with the bigtool driver).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# driver_protocol.py and scripted_driver.py are host-neutral: one copy, in ../disclosure-stdio/.
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "disclosure-stdio"))

from agent_framework import Agent, AgentSession, InMemoryHistoryProvider, MCPStdioTool, SlidingWindowStrategy
from catalogue_server import build_server
from driver_protocol import Call, serve
from mcp import Client
from scripted_client import ScriptedChatClient, function_results, text_message, tool_calls_message
from scripted_driver import ModelCall, ScriptedDriver

HERE = Path(__file__).resolve().parent
OPTIONS = {"transport", "tool_name_prefix", "compaction_keep_last_groups", "function_invocation", "timeout"}


class MafDriver(ScriptedDriver):
    """Microsoft Agent Framework's real Agent + MCPTool under a scripted model (see the module docstring)."""

    HOST = "agent-framework-core 1.23.0"
    _tool_calls_message = staticmethod(tool_calls_message)
    _text_message = staticmethod(text_message)

    def __init__(self, catalogue: Sequence[Mapping[str, Any]], always_visible: Sequence[str],
                 options: Mapping[str, Any]) -> None:
        """Keep the configuration; `open` builds the host. Raises ValueError on an unknown option."""
        if set(options) - OPTIONS:
            raise ValueError(f"unknown MAF driver options {sorted(set(options) - OPTIONS)}; known: {sorted(OPTIONS)}")
        if options.get("transport", "memory") not in ("memory", "stdio"):
            raise ValueError("transport is 'memory' or 'stdio'")
        super().__init__(float(options.get("timeout", 30)))
        self.catalogue = [dict(entry) for entry in catalogue]
        self.always_visible = list(always_visible)
        self.options = dict(options)
        self.warnings: list[str] = []
        self._log: list[tuple[str, dict[str, Any]]] = []
        self._server = build_server(self.catalogue, lambda name, args: self._log.append((name, args)))
        self._workdir = tempfile.TemporaryDirectory(prefix="pas-maf-")
        self._sessions: dict[str, AgentSession] = {}
        self._tool_task: asyncio.Task[None] | None = None
        self._tool_stop = asyncio.Event()

    @classmethod
    async def open(cls, catalogue: Sequence[Mapping[str, Any]], always_visible: Sequence[str] = (),
                   options: Mapping[str, Any] | None = None) -> MafDriver:
        """Build the server, the MCPTool (connected) and the Agent."""
        driver = cls(catalogue, always_visible, options or {})
        await driver._build_tool()
        driver._build_agent()
        return driver

    def describe(self) -> dict[str, Any]:
        """What was built: host, loader names, options, and the warnings MAF emitted while building."""
        return {"host": self.HOST, "loaders": self._loader_names(), "options": self.options, "warnings": self.warnings}

    def _loader_names(self) -> dict[str, str]:
        prefix = self.options.get("tool_name_prefix")
        names = {"list": "list_mcp_tools", "load": "load_tool", "unload": "unload_tool"}
        return {kind: f"{prefix}_{name}" if prefix else name for kind, name in names.items()}

    async def _build_tool(self) -> None:
        """A new MCPTool with its own connection, held open by a task of its own until `_release_tool`.

        The connection lives in its own task because the MCP client's anyio task group must be exited
        by the task that entered it, in nesting order; a holder task per MCPTool makes closing in any
        order (and several drivers in one process) safe.
        """
        await self._release_tool()
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._tool_stop = asyncio.Event()
        self._tool_task = asyncio.create_task(self._hold_tool(ready, self._tool_stop))
        await ready

    async def _hold_tool(self, ready: asyncio.Future[None], stop: asyncio.Event) -> None:
        common = {"use_progressive_disclosure": True, "always_load": self.always_visible or None,
                  "tool_name_prefix": self.options.get("tool_name_prefix")}
        try:
            async with contextlib.AsyncExitStack() as stack:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    if self.options.get("transport", "memory") == "stdio":
                        self.tool = MCPStdioTool(name="catalogue", command=sys.executable, args=self._stdio_args(),
                                                 **common)
                    else:
                        client = await stack.enter_async_context(Client(self._server))
                        self.tool = MCPStdioTool(name="catalogue", mcp_client=client, **common)
                self.warnings += [f"{w.category.__name__}: {w.message}" for w in caught]
                await stack.enter_async_context(self.tool)
                ready.set_result(None)
                await stop.wait()
        except BaseException as error:
            if ready.done():
                raise
            ready.set_exception(error)

    async def _release_tool(self) -> None:
        if self._tool_task is not None:
            self._tool_stop.set()
            await asyncio.gather(self._tool_task, return_exceptions=True)
            self._tool_task = None

    def _stdio_args(self) -> list[str]:
        catalogue_file = Path(self._workdir.name) / "catalogue.json"
        catalogue_file.write_text(json.dumps(self.catalogue), encoding="utf-8")
        return [str(HERE / "catalogue_server.py"), str(catalogue_file), str(self._stdio_log())]

    def _stdio_log(self) -> Path:
        return Path(self._workdir.name) / "executions.jsonl"

    def _build_agent(self) -> None:
        client = ScriptedChatClient()
        client.function_invocation_configuration.update(self.options.get("function_invocation", {}))
        keep = self.options.get("compaction_keep_last_groups")
        strategy = SlidingWindowStrategy(keep_last_groups=int(keep)) if keep else None
        self.agent = Agent(client=client, tools=[self.tool], compaction_strategy=strategy)

    def _executions(self) -> list[tuple[str, dict[str, Any]]]:
        if self.options.get("transport", "memory") != "stdio":
            return list(self._log)
        log = self._stdio_log()
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        return [(entry["name"], entry["arguments"]) for entry in map(json.loads, lines)]

    async def _run_host(self, thread: str, text: str) -> Any:
        session = self._sessions.setdefault(thread, self.agent.create_session())
        return await self.agent.run(text, session=session)

    def _host_calls(self, call: Call) -> list[tuple[str, dict[str, Any]]] | None:
        """load -> load_tool, unload -> unload_tool, list -> list_mcp_tools, invoke -> the tool; no search."""
        loaders = self._loader_names()
        if call.kind in ("load", "unload"):
            names = call.names if isinstance(call.names, str) else list(call.names or ())
            return [(loaders[call.kind], {"tool": names})]
        if call.kind == "list":
            return [(loaders["list"], {})]
        if call.kind == "invoke":
            return [(str(call.tool), dict(call.arguments))]
        return None

    def _results(self, call: ModelCall) -> dict[str, tuple[str | None, str | None]]:
        """The function results' texts (strings as they are, anything else as JSON) and exceptions."""
        return {call_id: (_text(content.result), content.exception)
                for call_id, content in function_results(call).items()}

    def _is_tool(self, call: Call, executed_name: str) -> bool:
        prefix = self.options.get("tool_name_prefix")
        return call.tool in (executed_name, f"{prefix}_{executed_name}")

    async def rebuild(self, store: str = "kept") -> dict[str, Any]:
        """A new Agent (and chat client); with store "reset" a new MCPTool too. Raises ValueError if runs are open."""
        if store not in ("kept", "reset"):
            raise ValueError("store is 'kept' or 'reset'")
        self._refuse_if_open("rebuild")
        if store == "reset":
            await self._build_tool()
        self._build_agent()
        return {"store": store, "mcp_tool_id": id(self.tool)}

    async def restart(self, store: str = "kept") -> dict[str, Any]:
        """The host process restarts: a new MCPTool with its own connection, a new Agent and chat client.

        "kept" restores each thread's session from its serialised form (`AgentSession.to_dict` through
        JSON and back with `AgentSession.from_dict`, as a session store keeps it); "reset" forgets every
        session. The MCP server stays (it is another process). Raises ValueError if runs are open.
        """
        if store not in ("kept", "reset"):
            raise ValueError("store is 'kept' or 'reset'")
        self._refuse_if_open("restart")
        saved = {thread: json.dumps(s.to_dict()) for thread, s in self._sessions.items()} if store == "kept" else {}
        await self._build_tool()
        self._build_agent()
        self._sessions = {thread: AgentSession.from_dict(json.loads(doc)) for thread, doc in saved.items()}
        return {"store": store, "mcp_tool_id": id(self.tool), "sessions": sorted(self._sessions)}

    async def trim(self, thread: str, keep_last: int) -> dict[str, Any]:
        """Keep the last `keep_last` messages of the thread's stored history (between requests)."""
        self._refuse_if_open("trim", thread)
        session = self._sessions.setdefault(thread, self.agent.create_session())
        stored = session.state.setdefault(InMemoryHistoryProvider.DEFAULT_SOURCE_ID, {})
        messages = list(stored.get("messages", []))
        stored["messages"] = messages[len(messages) - keep_last:] if keep_last > 0 else []
        return {"before": len(messages), "after": len(stored["messages"])}

    async def reset(self, kind: str = "close") -> dict[str, Any]:
        """MCPTool's own resets: "close" (`close()`) or "reconnect" (`connect(reset=True)`)."""
        before = await self.state()
        if kind == "close":
            await self.tool.close()
        elif kind == "reconnect":
            await self.tool.connect(reset=True)
        else:
            raise ValueError("kind is 'close' or 'reconnect'")
        return {"before": before, "after": await self.state()}

    async def state(self) -> dict[str, Any]:
        """MCPTool's loaded set (a private attribute: host-side inspection for checking facts, not an observation)."""
        return {"loaded": sorted(self.tool._progressive_loaded_tool_names), "connected": self.tool.is_connected}

    async def close(self) -> None:
        """End open runs, disconnect, remove the work directory."""
        await self._cancel_requests()
        await self._release_tool()
        self._workdir.cleanup()


def _text(result: Any) -> str:
    """A function result as the text the model reads (MAF hands strings on; anything else as JSON)."""
    return result if isinstance(result, str) else json.dumps(result)


if __name__ == "__main__":
    asyncio.run(serve(MafDriver.open))
