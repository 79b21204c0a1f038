"""The host-neutral engine of a disclosure driver: open requests as asyncio tasks, a scripted model, and the steps.

Shared by every host's driver (see driver_protocol.py for how they import it). A host driver
subclasses `ScriptedDriver` and fills in the hooks: how to run one request of the host
(`_run_host`), which host tool calls a model call maps to (`_host_calls`), how the model's reply is
written (`_tool_calls_message`, `_text_message`), what the model reads back (`_results`), and which
tool functions ran (`_executions`).

How a request runs: `begin_request` starts `_run_host` as an asyncio task with its own `Channel` in
the `CURRENT_CHANNEL` context variable (asyncio copies it to everything the task starts). When the
host calls its model, the stand-in model puts a `ModelCall` (tool names in order, tool choice,
messages) on that channel and waits; the driver reads it, and `model_step` / `end_request` answer it.
Requests on different threads are different tasks, so they interleave for real.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from driver_protocol import Answer, Call, HostCall, StepResult, unsupported

Planned = list[tuple[str, dict[str, Any]]]


@dataclass
class ModelCall:
    """One request the host sends its model: tool names in order, tool choice, messages, and the reply slot."""

    tools: tuple[str, ...]
    tool_choice: str | None
    messages: tuple[Any, ...]
    reply: asyncio.Future[Any] = field(repr=False)


class Channel:
    """The model side of one open request: model calls queue up here until the driver answers them."""

    def __init__(self) -> None:
        """An empty channel (create it inside the running event loop)."""
        self.calls: asyncio.Queue[ModelCall] = asyncio.Queue()

    async def ask(self, tools: Sequence[str], tool_choice: str | None, messages: Sequence[Any]) -> Any:
        """Queue one model call and wait for the scripted reply."""
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.calls.put(ModelCall(tuple(tools), tool_choice, tuple(messages), reply))
        return await reply


CURRENT_CHANNEL: contextvars.ContextVar[Channel] = contextvars.ContextVar("pas_scripted_channel")


def describe_error(error: BaseException) -> str:
    """The innermost exceptions of an error (exception groups and causes unwrapped), "Type: message; ..."."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe_error(inner) for inner in error.exceptions)
    text = f"{type(error).__name__}: {error}"
    return f"{text} <- {describe_error(error.__cause__)}" if error.__cause__ is not None else text


def outcome(task: asyncio.Task[Any]) -> str | None:
    """None when the finished request returned, else its exception as "Type: message"."""
    if task.cancelled():
        return "cancelled"
    error = task.exception()
    return None if error is None else describe_error(error)


class _Request:
    """An open request: its task, its model channel, and the model call waiting for an answer."""

    def __init__(self, task: asyncio.Task[Any], channel: Channel, pending: ModelCall) -> None:
        self.task, self.channel, self.pending = task, channel, pending
        self.steps = 0


class ScriptedDriver:
    """Requests, steps and answers over a host's real loop; subclasses supply the hooks (module docstring)."""

    HOST = "host"

    def __init__(self, timeout: float) -> None:
        """No open requests; `timeout` is how long to wait for the host to call its model or finish."""
        self.timeout = timeout
        self._requests: dict[str, _Request] = {}
        self._turns = 0

    async def _run_host(self, thread: str, text: str) -> Any:
        """Run one request of the host on `thread` with the user's `text` (runs inside the request's task)."""
        raise NotImplementedError

    def _host_calls(self, call: Call) -> Planned | None:
        """The host tool calls (name, arguments) a model call maps to, or None when the host has no tool for it."""
        raise NotImplementedError

    def _tool_calls_message(self, calls: Sequence[tuple[str, str, Mapping[str, Any]]]) -> Any:
        """The model's reply calling these (call id, tool, arguments)."""
        raise NotImplementedError

    def _text_message(self, text: str) -> Any:
        """The model's reply answering with plain text."""
        raise NotImplementedError

    def _results(self, call: ModelCall) -> Mapping[str, tuple[str | None, str | None]]:
        """What a model call carries back for each tool call id: (text the model reads, error the host recorded)."""
        raise NotImplementedError

    def _executions(self) -> list[tuple[str, dict[str, Any]]]:
        """Every tool function execution so far, (name, arguments), in order."""
        raise NotImplementedError

    def _is_tool(self, call: Call, executed_name: str) -> bool:
        """Whether an execution recorded under `executed_name` is the tool this invoke named."""
        return call.tool == executed_name

    async def begin_request(self, thread: str, text: str | None = None) -> dict[str, Any]:
        """Start a request on `thread` and return its first model call. Raises ValueError if one is open there.

        The default text is unique per request (a host may fold repeated identical messages).
        """
        if thread in self._requests:
            raise ValueError(f"thread {thread!r} already has an open request: end it first")
        self._turns += 1
        channel = Channel()
        task = asyncio.create_task(self._in_channel(channel, thread, text or f"user turn {self._turns} on {thread}"))
        first = await self._next_call(task, channel)
        if first is None:
            return {"tools": None, "tool_choice": None, "messages": None, "ended": outcome(task) or "completed"}
        self._requests[thread] = _Request(task, channel, first)
        return {"tools": list(first.tools), "tool_choice": first.tool_choice, "messages": len(first.messages)}

    async def _in_channel(self, channel: Channel, thread: str, text: str) -> Any:
        CURRENT_CHANNEL.set(channel)
        return await self._run_host(thread, text)

    async def _next_call(self, task: asyncio.Task[Any], channel: Channel) -> ModelCall | None:
        """The request's next model call, or None when it ended first. Raises TimeoutError if neither comes."""
        getter = asyncio.ensure_future(channel.calls.get())
        done, _ = await asyncio.wait({getter, task}, timeout=self.timeout, return_when=asyncio.FIRST_COMPLETED)
        if getter in done:
            return getter.result()
        getter.cancel()
        if task in done:
            return None
        raise TimeoutError(f"{self.HOST} made no model call and did not end within {self.timeout} s")

    def _request(self, thread: str) -> _Request:
        if thread not in self._requests:
            raise ValueError(f"thread {thread!r} has no open request: begin_request first")
        return self._requests[thread]

    async def model_step(self, thread: str, calls: Sequence[Call]) -> StepResult:
        """The model answers with these calls; per call what it reads back, then the next model call's tool list.

        Calls the host has no tool for are answered "unsupported" and not sent; when none is left the
        host is not advanced and the pending model call's list is returned again.
        """
        request = self._request(thread)
        request.steps += 1
        planned = []
        for i, call in enumerate(calls):
            hosts = self._host_calls(call)
            planned.append((call, hosts, [f"{thread}-{request.steps}-{i}-{j}" for j in range(len(hosts or ()))]))
        sent = [(call_id, name, args) for _, hosts, ids in planned for call_id, (name, args) in zip(ids, hosts or ())]
        if not sent:
            pending = request.pending
            return StepResult(tuple(unsupported(call, self.HOST) for call in calls), pending.tools,
                              pending.tool_choice, len(pending.messages))
        mark = len(self._executions())
        request.pending.reply.set_result(self._tool_calls_message(sent))
        following = await self._next_call(request.task, request.channel)
        ran = self._executions()[mark:]
        ended = None if following is not None else outcome(request.task) or "completed"
        results = self._results(following) if following is not None else {}
        answers = tuple(self._answer(call, hosts, ids, results, ran, ended) for call, hosts, ids in planned)
        if following is None:
            del self._requests[thread]
            return StepResult(answers, None, ended=ended)
        request.pending = following
        return StepResult(answers, following.tools, following.tool_choice, len(following.messages))

    def _answer(self, call: Call, hosts: Planned | None, ids: list[str],
                results: Mapping[str, tuple[str | None, str | None]], ran: list[tuple[str, dict[str, Any]]],
                ended: str | None) -> Answer:
        if hosts is None:
            return unsupported(call, self.HOST)
        got = [results.get(call_id, (None, None)) for call_id in ids]
        host_calls = tuple(HostCall(name, args, text) for (name, args), (text, _) in zip(hosts, got))
        texts = [text for text, _ in got]
        text = None if any(t is None for t in texts) else "\n".join(str(t) for t in texts)
        errors = [error for _, error in got if error]
        if ended is not None:
            errors.append(f"no answer: the request ended ({ended}) without another model call")
        executed = self._consume_execution(call, ran) if call.kind == "invoke" else None
        return Answer(call=call.as_json(), supported=True, text=text, host_calls=host_calls, executed=executed,
                      error="; ".join(errors) or None)

    def _consume_execution(self, call: Call, ran: list[tuple[str, dict[str, Any]]]) -> bool:
        """Whether this invoke's tool function ran (each execution is matched to one call only).

        An execution with this call's arguments is matched first; failing that, the first execution
        of the same tool, because a host may drop arguments its schema lacks before the function
        runs (MAF does: `{"city": "Oslo"}` for a tool without parameters arrives as `{}`).
        """
        same_tool = [index for index, (name, _) in enumerate(ran) if self._is_tool(call, name)]
        exact = [index for index in same_tool if ran[index][1] == dict(call.arguments)]
        if not same_tool:
            return False
        del ran[(exact or same_tool)[0]]
        return True

    async def end_request(self, thread: str, text: str | None = None) -> dict[str, Any]:
        """The model answers plain text (unique by default); wait for the request to finish and say how it ended."""
        request = self._request(thread)
        del self._requests[thread]
        request.pending.reply.set_result(self._text_message(text or f"answer {self._turns} on {thread}"))
        following = await self._next_call(request.task, request.channel)
        if following is not None:
            following.reply.set_result(self._text_message("done"))
            await asyncio.wait({request.task}, timeout=self.timeout)
            return {"completed": request.task.done(), "error": f"{self.HOST} called the model again after a text answer"}
        error = outcome(request.task)
        return {"completed": error is None, "error": error}

    def _refuse_if_open(self, action: str, thread: str | None = None) -> None:
        """Raise ValueError when requests are open (on `thread`, or on any thread when None)."""
        open_on = sorted(self._requests) if thread is None else [t for t in self._requests if t == thread]
        if open_on:
            raise ValueError(f"requests are open on {open_on}: end them before you {action}")

    async def _cancel_requests(self) -> None:
        """Cancel every open request and wait for the tasks to finish."""
        for request in self._requests.values():
            request.task.cancel()
        await asyncio.gather(*(r.task for r in self._requests.values()), return_exceptions=True)
        self._requests.clear()
