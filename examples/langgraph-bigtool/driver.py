"""Drive LangGraph bigtool 0.0.3's real graph with a scripted model.

Run with a bigtool venv's Python (scripts/install-bigtool.sh: the default set, where every call of a
registry tool crashes, or the working set); it imports no PAS code. Real objects: the graph from
`langgraph_bigtool.create_agent` (its `retrieve_tools`, the `selected_tool_ids` reducer, its ToolNode)
compiled with an `InMemorySaver` checkpointer and an `InMemoryStore`. Stand-ins: the model
(scripted_model.py) and the retrieval's embeddings or the retrieval function (catalogue.py).

Interface (all methods async; `BigtoolDriver.open(...)` builds):
    BigtoolDriver.open(catalogue, always_visible=(), options={}) -> BigtoolDriver
        catalogue: [{"name", "description", "parameters": JSON schema}], the registry (id = name);
        always_visible: ids seeded into `selected_tool_ids` in every request's input (bigtool has no
        always-load; the reducer ignores ids already selected);
        options: limit (bigtool's, default 2); retrieval "store" (default: bigtool's own store search over
        NameEmbeddings) | "names" (a retrieve_tools_function: exact name -> [id], else []);
        checkpointer (default true: InMemorySaver; false: none, every request starts empty);
        timeout (seconds to wait for the host, default 30).
    begin_request(thread, text=None) -> {"tools": [...names in order...], "tool_choice", "messages"}
        `graph.ainvoke` on thread_id `thread` as an asyncio task; returns the first model call.
    model_step(thread, calls) -> StepResult (driver_protocol.py): the model answers with these tool calls;
        search(q) -> retrieve_tools(query=q); load(names) -> one retrieve_tools(query=name) per name (bigtool
        has no load: an exact-name query is the nearest thing; with the store retrieval it returns up to
        `limit` ids, the named one first); invoke -> that tool; unload and list are answered "unsupported"
        (bigtool has no tool for them) and not sent. Per call: the ToolMessage text the next model call
        carries (several joined by newlines for a multi-name load), for an invoke whether the tool's
        function executed; then the next model call's tool list. A crash of the graph ends the request:
        `ended` and each answer's `error` carry the exception text.
    end_request(thread, text=None) -> {"completed", "error"}: the model answers text; the graph ends.
    Requests on different threads may be open at once (one task each, blocked in its model call).
    rebuild(store="kept"|"reset"): recompile the graph with the same checkpointer, or a new InMemorySaver.
    trim(thread, keep_last): the thread's next request input starts with RemoveMessage for all but the
        last `keep_last` stored messages (bigtool's graph.update_state needs as_node, see FACTS-CHECKED.md).
    reset(kind, thread, ids=None): host-side resets bigtool's stack offers: "delete_thread" (the
        checkpointer forgets the thread) or "overwrite" (next input sets selected_tool_ids to `ids` with
        langgraph.types.Overwrite; only where langgraph has it).
    state(thread) -> {"selected_tool_ids", "messages"}: the checkpointed state, for checking facts.
    close()
Run as a script it serves the JSON-lines loop of driver_protocol.py on stdin/stdout; the request
engine is scripted_driver.py's (in ../disclosure-stdio/, shared with the MAF driver).
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# driver_protocol.py and scripted_driver.py are host-neutral: one copy, in ../disclosure-stdio/.
sys.path.insert(1, str(Path(__file__).resolve().parent.parent / "disclosure-stdio"))

import langgraph.types
from catalogue import catalogue_store, registry, retrieve_by_name
from driver_protocol import Call, serve
from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph_bigtool import create_agent
from scripted_driver import ModelCall, ScriptedDriver
from scripted_model import ScriptedChatModel, text_message, tool_calls_message, tool_results

HOST = "langgraph-bigtool 0.0.3"
RETRIEVE = "retrieve_tools"
PACKAGES = ("langgraph-bigtool", "langgraph", "langgraph-prebuilt", "langgraph-checkpoint", "langchain-core")


class BigtoolDriver(ScriptedDriver):
    """bigtool's real graph under a scripted model (see the module docstring)."""

    HOST = HOST
    _tool_calls_message = staticmethod(tool_calls_message)
    _text_message = staticmethod(text_message)

    model_class: type[ScriptedChatModel] = ScriptedChatModel

    def __init__(self, catalogue: Sequence[Mapping[str, Any]], always_visible: Sequence[str],
                 options: Mapping[str, Any]) -> None:
        """Build registry, store and graph. Raises ValueError on an unknown option or seed id."""
        unknown = set(options) - {"limit", "retrieval", "checkpointer", "timeout"}
        if unknown:
            raise ValueError(f"unknown bigtool driver options {sorted(unknown)}")
        if options.get("retrieval", "store") not in ("store", "names"):
            raise ValueError("retrieval is 'store' or 'names'")
        super().__init__(float(options.get("timeout", 30)))
        self.options = dict(options)
        self._log: list[tuple[str, dict[str, Any]]] = []
        self.tools = registry(catalogue, lambda name, args: self._log.append((name, args)))
        missing = [name for name in always_visible if name not in self.tools]
        if missing:
            raise ValueError(f"always_visible names not in the catalogue: {missing}")
        self.seed = list(always_visible)
        self.store = catalogue_store(catalogue)
        self.checkpointer = InMemorySaver() if options.get("checkpointer", True) else None
        self._pending_input: dict[str, dict[str, Any]] = {}
        self._compile()

    @classmethod
    async def open(cls, catalogue: Sequence[Mapping[str, Any]], always_visible: Sequence[str] = (),
                   options: Mapping[str, Any] | None = None) -> BigtoolDriver:
        """Build the driver (the JSON-lines loop's opener)."""
        return cls(catalogue, always_visible, options or {})

    def describe(self) -> dict[str, Any]:
        """What was built: host and package versions, the loader mapping, options, the seed."""
        versions = {name: importlib.metadata.version(name) for name in PACKAGES}
        return {"host": HOST, "versions": versions, "loaders": {"search": RETRIEVE, "load": f"{RETRIEVE} (exact name)"},
                "options": self.options, "seed": self.seed, "overwrite_available": hasattr(langgraph.types, "Overwrite")}

    def _compile(self, retrieve: Callable[..., list[str]] | None = None) -> None:
        """Compile bigtool's graph; `retrieve` (a retrieve_tools_function) overrides the retrieval option."""
        extra: dict[str, Any] = {}
        if retrieve is not None:
            extra["retrieve_tools_function"] = retrieve
        elif self.options.get("retrieval", "store") == "names":
            extra["retrieve_tools_function"] = retrieve_by_name(self.tools)
        builder = create_agent(self.model_class(), self.tools, limit=int(self.options.get("limit", 2)), **extra)
        self.graph = builder.compile(checkpointer=self.checkpointer, store=self.store)

    @staticmethod
    def _config(thread: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": thread}}

    async def _run_host(self, thread: str, text: str) -> Any:
        """graph.ainvoke on thread_id `thread`: queued trims or overwrites, the user's text, the seed."""
        pending = self._pending_input.pop(thread, {})
        graph_input: dict[str, Any] = {"messages": [*pending.get("messages", []), HumanMessage(text)]}
        if "selected_tool_ids" in pending:
            graph_input["selected_tool_ids"] = pending["selected_tool_ids"]
        elif self.seed:
            graph_input["selected_tool_ids"] = list(self.seed)
        return await self.graph.ainvoke(graph_input, config=self._config(thread))

    def _host_calls(self, call: Call) -> list[tuple[str, dict[str, Any]]] | None:
        """search -> retrieve_tools(query); load -> one retrieve_tools(query=name) per name; invoke -> the tool."""
        if call.kind == "search":
            return [(RETRIEVE, {"query": call.query})]
        if call.kind == "load":
            return [(RETRIEVE, {"query": name}) for name in call.name_list()]
        if call.kind == "invoke":
            return [(str(call.tool), dict(call.arguments))]
        return None

    def _results(self, call: ModelCall) -> dict[str, tuple[str | None, str | None]]:
        """The ToolMessages' contents (what the model reads); bigtool records no separate error."""
        return {call_id: (str(message.content), None) for call_id, message in tool_results(call).items()}

    def _executions(self) -> list[tuple[str, dict[str, Any]]]:
        return list(self._log)

    async def rebuild(self, store: str = "kept") -> dict[str, Any]:
        """Recompile the graph; "reset" gives it a new InMemorySaver. Raises ValueError if requests are open."""
        if store not in ("kept", "reset"):
            raise ValueError("store is 'kept' or 'reset'")
        self._refuse_if_open("rebuild")
        if store == "reset" and self.checkpointer is not None:
            self.checkpointer = InMemorySaver()
        self._compile()
        return {"store": store, "checkpointer_id": id(self.checkpointer)}

    async def trim(self, thread: str, keep_last: int) -> dict[str, Any]:
        """Queue RemoveMessage for all but the last `keep_last` stored messages into the thread's next input."""
        self._refuse_if_open("trim", thread)
        if self.checkpointer is None:
            raise ValueError("no checkpointer: every request starts with no history, there is nothing to trim")
        messages = (await self.graph.aget_state(self._config(thread))).values.get("messages", [])
        removed = messages[:len(messages) - keep_last] if keep_last > 0 else messages
        removes = ([RemoveMessage(id=REMOVE_ALL_MESSAGES)] if keep_last <= 0
                   else [RemoveMessage(id=message.id) for message in removed])
        self._pending_input.setdefault(thread, {})["messages"] = removes
        return {"before": len(messages), "after": len(messages) - len(removed)}

    async def reset(self, kind: str, thread: str, ids: Sequence[str] | None = None) -> dict[str, Any]:
        """Host-side resets: "delete_thread" (checkpointer) or "overwrite" (next input replaces selected_tool_ids)."""
        before = await self.state(thread)
        if kind == "delete_thread":
            if self.checkpointer is None:
                raise ValueError("no checkpointer: nothing to delete")
            await self.checkpointer.adelete_thread(thread)
        elif kind == "overwrite":
            if not hasattr(langgraph.types, "Overwrite"):
                raise ValueError(f"langgraph {importlib.metadata.version('langgraph')} has no langgraph.types.Overwrite")
            self._pending_input.setdefault(thread, {})["selected_tool_ids"] = langgraph.types.Overwrite(list(ids or ()))
        else:
            raise ValueError("kind is 'delete_thread' or 'overwrite'")
        return {"before": before, "after": await self.state(thread)}

    async def state(self, thread: str) -> dict[str, Any]:
        """The thread's checkpointed selected_tool_ids and message count (None without a checkpointer)."""
        if self.checkpointer is None:
            return {"selected_tool_ids": None, "messages": None}
        values = (await self.graph.aget_state(self._config(thread))).values
        return {"selected_tool_ids": values.get("selected_tool_ids"), "messages": len(values.get("messages", []))}

    async def close(self) -> None:
        """Cancel open requests."""
        await self._cancel_requests()


if __name__ == "__main__":
    asyncio.run(serve(BigtoolDriver.open))
