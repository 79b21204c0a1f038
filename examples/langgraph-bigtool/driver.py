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
Run as a script it serves the JSON-lines loop of driver_protocol.py on stdin/stdout.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import langgraph.types
from catalogue import catalogue_store, registry, retrieve_by_name
from driver_protocol import (
    CURRENT_CHANNEL,
    Answer,
    Call,
    Channel,
    HostCall,
    ModelCall,
    StepResult,
    next_model_call,
    outcome,
    serve,
    unsupported,
)
from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph_bigtool import create_agent
from scripted_model import ScriptedChatModel, text_message, tool_calls_message, tool_results

HOST = "langgraph-bigtool 0.0.3"
RETRIEVE = "retrieve_tools"
PACKAGES = ("langgraph-bigtool", "langgraph", "langgraph-prebuilt", "langgraph-checkpoint", "langchain-core")


class _Request:
    """An open request: its task, its model channel, and the model call waiting for an answer."""

    def __init__(self, task: asyncio.Task[Any], channel: Channel, pending: ModelCall) -> None:
        self.task, self.channel, self.pending = task, channel, pending
        self.steps = 0


class BigtoolDriver:
    """bigtool's real graph under a scripted model (see the module docstring)."""

    model_class: type[ScriptedChatModel] = ScriptedChatModel

    def __init__(self, catalogue: Sequence[Mapping[str, Any]], always_visible: Sequence[str],
                 options: Mapping[str, Any]) -> None:
        """Build registry, store and graph. Raises ValueError on an unknown option or seed id."""
        unknown = set(options) - {"limit", "retrieval", "checkpointer", "timeout"}
        if unknown:
            raise ValueError(f"unknown bigtool driver options {sorted(unknown)}")
        if options.get("retrieval", "store") not in ("store", "names"):
            raise ValueError("retrieval is 'store' or 'names'")
        self.options = dict(options)
        self.timeout = float(options.get("timeout", 30))
        self._log: list[tuple[str, dict[str, Any]]] = []
        self.tools = registry(catalogue, lambda name, args: self._log.append((name, args)))
        missing = [name for name in always_visible if name not in self.tools]
        if missing:
            raise ValueError(f"always_visible names not in the catalogue: {missing}")
        self.seed = list(always_visible)
        self.store = catalogue_store(catalogue)
        self.checkpointer = InMemorySaver() if options.get("checkpointer", True) else None
        self._requests: dict[str, _Request] = {}
        self._pending_input: dict[str, dict[str, Any]] = {}
        self._turns = 0
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

    async def begin_request(self, thread: str, text: str | None = None) -> dict[str, Any]:
        """Start a request on `thread` and return its first model call. Raises ValueError if one is open there."""
        if thread in self._requests:
            raise ValueError(f"thread {thread!r} already has an open request: end it first")
        self._turns += 1
        pending = self._pending_input.pop(thread, {})
        graph_input: dict[str, Any] = {
            "messages": [*pending.get("messages", []), HumanMessage(text or f"user turn {self._turns} on {thread}")]}
        if "selected_tool_ids" in pending:
            graph_input["selected_tool_ids"] = pending["selected_tool_ids"]
        elif self.seed:
            graph_input["selected_tool_ids"] = list(self.seed)
        channel = Channel()
        task = asyncio.create_task(self._run(self.graph, channel, graph_input, self._config(thread)))
        first = await next_model_call(task, channel, self.timeout, HOST)
        if first is None:
            return {"tools": None, "tool_choice": None, "messages": None, "ended": outcome(task)}
        self._requests[thread] = _Request(task, channel, first)
        return {"tools": list(first.tools), "tool_choice": first.tool_choice, "messages": len(first.messages)}

    @staticmethod
    async def _run(graph: Any, channel: Channel, graph_input: dict[str, Any], config: dict[str, Any]) -> Any:
        CURRENT_CHANNEL.set(channel)
        return await graph.ainvoke(graph_input, config=config)

    def _request(self, thread: str) -> _Request:
        if thread not in self._requests:
            raise ValueError(f"thread {thread!r} has no open request: begin_request first")
        return self._requests[thread]

    @staticmethod
    def _host_calls(call: Call) -> list[tuple[str, dict[str, Any]]] | None:
        """The host tool calls a model call maps to, or None when bigtool has no tool for it."""
        if call.kind == "search":
            return [(RETRIEVE, {"query": call.query})]
        if call.kind == "load":
            return [(RETRIEVE, {"query": name}) for name in call.name_list()]
        if call.kind == "invoke":
            return [(str(call.tool), dict(call.arguments))]
        return None

    async def model_step(self, thread: str, calls: Sequence[Call]) -> StepResult:
        """The model calls these tools; answers and the next model call's tool list (see the module docstring)."""
        request = self._request(thread)
        request.steps += 1
        planned = []
        for i, call in enumerate(calls):
            hosts = self._host_calls(call)
            ids = [f"{thread}-{request.steps}-{i}-{j}" for j in range(len(hosts or ()))]
            planned.append((call, hosts, ids))
        sent = [(call_id, name, args) for _, hosts, ids in planned for call_id, (name, args) in zip(ids, hosts or ())]
        if not sent:
            pending = request.pending
            return StepResult(tuple(unsupported(call, HOST) for call in calls), pending.tools, pending.tool_choice,
                              len(pending.messages), ended=None)
        mark = len(self._log)
        request.pending.reply.set_result(tool_calls_message(sent))
        following = await next_model_call(request.task, request.channel, self.timeout, HOST)
        ran = self._log[mark:]
        ended = None if following is not None else outcome(request.task) or "completed"
        results = tool_results(following) if following is not None else {}
        answers = tuple(self._answer(call, hosts, ids, results, ran, ended) for call, hosts, ids in planned)
        if following is None:
            del self._requests[thread]
            return StepResult(answers, None, ended=ended)
        request.pending = following
        return StepResult(answers, following.tools, following.tool_choice, len(following.messages))

    @staticmethod
    def _answer(call: Call, hosts: list[tuple[str, dict[str, Any]]] | None, ids: list[str],
                results: Mapping[str, Any], ran: list[tuple[str, dict[str, Any]]], ended: str | None) -> Answer:
        if hosts is None:
            return unsupported(call, HOST)
        texts = [results[i].content if i in results else None for i in ids]
        host_calls = tuple(HostCall(name, args, text) for (name, args), text in zip(hosts, texts))
        text = None if any(t is None for t in texts) else "\n".join(str(t) for t in texts)
        executed = None
        if call.kind == "invoke":
            match = (call.tool, dict(call.arguments))
            executed = match in ran
            if executed:
                ran.remove(match)
        error = None if ended is None else f"no answer: the request ended ({ended}) without another model call"
        return Answer(call=call.as_json(), supported=True, text=text, host_calls=host_calls, executed=executed,
                      error=error)

    async def end_request(self, thread: str, text: str | None = None) -> dict[str, Any]:
        """The model answers plain text; wait for the graph to finish and say how it ended."""
        request = self._request(thread)
        del self._requests[thread]
        request.pending.reply.set_result(text_message(text or f"answer {self._turns} on {thread}"))
        following = await next_model_call(request.task, request.channel, self.timeout, HOST)
        if following is not None:
            following.reply.set_result(text_message("done"))
            await asyncio.wait({request.task}, timeout=self.timeout)
            return {"completed": request.task.done(), "error": "bigtool called the model again after a text answer"}
        error = outcome(request.task)
        return {"completed": error is None, "error": error}

    async def rebuild(self, store: str = "kept") -> dict[str, Any]:
        """Recompile the graph; "reset" gives it a new InMemorySaver. Raises ValueError if requests are open."""
        if store not in ("kept", "reset"):
            raise ValueError("store is 'kept' or 'reset'")
        if self._requests:
            raise ValueError(f"requests are open on {sorted(self._requests)}: end them before rebuilding")
        if store == "reset" and self.checkpointer is not None:
            self.checkpointer = InMemorySaver()
        self._compile()
        return {"store": store, "checkpointer_id": id(self.checkpointer)}

    async def trim(self, thread: str, keep_last: int) -> dict[str, Any]:
        """Queue RemoveMessage for all but the last `keep_last` stored messages into the thread's next input."""
        if thread in self._requests:
            raise ValueError(f"thread {thread!r} has an open request: trim between requests")
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
        for request in self._requests.values():
            request.task.cancel()
        await asyncio.gather(*(r.task for r in self._requests.values()), return_exceptions=True)
        self._requests.clear()


if __name__ == "__main__":
    asyncio.run(serve(BigtoolDriver.open))
